package dev.tewheel.core.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing in the environment is loaded or run: a venv whose every library has a constructor that leaves a mark,
 * whose site-packages has a .pth file that leaves one when Python starts, and an nvcc on CUDA_HOME and PATH that
 * leaves one when run. doctor, asked about it through its interpreter, leaves none; then each plant is shown live.
 */
class DoctorLeavesNoTraceTest {
  @TempDir Path temp;

  @Test
  void doctorLoadsAndRunsNothingOfTheEnvironment() throws Exception {
    Path mark = temp.resolve("marks");
    Path venv = temp.resolve("venv");
    DoctorEnvironments.run(List.of(DoctorEnvironments.PIP_PYTHON.toString(), "-m", "venv", "--without-pip",
        venv.toString()), Map.of(), 120);
    Path python = venv.resolve("bin/python");
    Path site = Path.of(DoctorEnvironments.run(List.of(python.toString(), "-c",
        "import sysconfig; print(sysconfig.get_path('purelib'))"), Map.of(), 30).strip());
    DoctorEnvironments.Environment env = new DoctorEnvironments(temp.resolve("build"), Optional.of(mark))
        .make("healthy", site);
    Files.writeString(site.resolve("te_mark.pth"), "import os; open('" + mark + "', 'a').write('pth\\n')\n");
    Path bin = Files.createDirectories(temp.resolve("cuda/bin"));
    Path nvcc = Files.writeString(bin.resolve("nvcc"), "#!/bin/sh\necho nvcc >> '" + mark + "'\n");
    Files.setPosixFilePermissions(nvcc, PosixFilePermissions.fromString("rwxr-xr-x"));
    Map<String, String> variables = new HashMap<>(env.variables());
    variables.put("CUDA_HOME", temp.resolve("cuda").toString());
    variables.put("PATH", bin + ":/usr/bin:/bin");

    DoctorReport report = Doctor.examine(new DoctorRequest(Optional.of(python), List.of(), variables));

    assertEquals(List.of(site), report.environment().searchFolders(), report.lines().toString());
    assertTrue(report.distributions().size() >= 10, report.lines().toString());
    assertFalse(Files.exists(mark), () -> "doctor left marks: " + read(mark));

    DoctorEnvironments.run(List.of(python.toString(), "-c", "pass"), Map.of(), 30);
    DoctorEnvironments.run(List.of(nvcc.toString()), Map.of(), 30);
    TeImportOracle.run(new DoctorEnvironments.Environment("healthy", env.root(), site, env.variables(), "ok"));
    String marks = read(mark);
    assertTrue(marks.contains("pth\n") && marks.contains("nvcc\n") && marks.contains("libtransformer_engine.so\n")
        && marks.contains("libcublasLt.so.13\n"), "the plants are live: " + marks);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (java.io.IOException e) {
      return "(none)";
    }
  }
}
