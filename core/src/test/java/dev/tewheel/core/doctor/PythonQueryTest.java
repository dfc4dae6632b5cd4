package dev.tewheel.core.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** doctor's one question to an interpreter: where it imports from, with nothing of the environment run. */
class PythonQueryTest {
  @TempDir Path temp;

  @Test
  void theInterpretersOwnPurelibAndSitePackages() throws Exception {
    PythonEnvironment env = PythonQuery.ask(DoctorEnvironments.PIP_PYTHON, Map.of());
    String purelib = DoctorEnvironments.run(List.of(DoctorEnvironments.PIP_PYTHON.toString(), "-c",
        "import sysconfig; print(sysconfig.get_path('purelib'))"), Map.of(), 30).strip();
    assertEquals(Path.of(purelib), env.purelib());
    // The folders a plain start of the interpreter put on sys.path for site-packages, in its order.
    String site = DoctorEnvironments.run(List.of(DoctorEnvironments.PIP_PYTHON.toString(), "-c",
        "import site, sys; s = site.getsitepackages() + [site.getusersitepackages()];"
            + " print('\\n'.join(p for p in sys.path if p in s))"), Map.of(), 30).strip();
    assertEquals(site.lines().map(Path::of).toList(), env.searchFolders());
    assertEquals(DoctorEnvironments.PIP_PYTHON, env.interpreter().orElseThrow());
    assertTrue(env.extensionSuffix().orElseThrow().endsWith(".so"), env.toString());
  }

  /**
   * A venv whose site-packages holds a .pth file that leaves a mark when Python starts normally (site runs its
   * import lines; Debian's own sitecustomize, earlier on sys.path, would shadow one planted here):
   * doctor's query reports the venv's site-packages and leaves no mark; the same interpreter started plainly does.
   */
  @Test
  void aVenvsStartUpCodeNeverRuns() throws Exception {
    Path venv = temp.resolve("venv");
    DoctorEnvironments.run(List.of(DoctorEnvironments.PIP_PYTHON.toString(), "-m", "venv", "--without-pip",
        venv.toString()), Map.of(), 120);
    Path python = venv.resolve("bin/python");
    Path site = Path.of(DoctorEnvironments.run(List.of(python.toString(), "-c",
        "import sysconfig; print(sysconfig.get_path('purelib'))"), Map.of(), 30).strip());
    Path pthMark = temp.resolve("pth-ran");
    Files.writeString(site.resolve("te_mark.pth"), "import os; open(" + quoted(pthMark) + ", 'w').close()\n");

    PythonEnvironment env = PythonQuery.ask(python, Map.of("PYTHONPATH", temp.resolve("extra").toString()));

    assertEquals(List.of(temp.resolve("extra"), site), env.searchFolders());
    assertEquals(site, env.purelib());
    assertFalse(Files.exists(pthMark), "the .pth file ran");
    DoctorEnvironments.run(List.of(python.toString(), "-c", "pass"), Map.of(), 30);
    assertTrue(Files.exists(pthMark), "the planted start-up code is live");
  }

  @Test
  void aFileThatIsNoInterpreterIsNamed() throws Exception {
    Path notPython = Files.writeString(temp.resolve("python"), "not a program");
    DoctorException e = assertThrows(DoctorException.class, () -> PythonQuery.ask(notPython, Map.of()));
    assertTrue(e.getMessage().contains(notPython.toString()) && e.getMessage().contains("not an executable file"),
        e.getMessage());
  }

  private static String quoted(Path path) {
    return "'" + path.toString().replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
