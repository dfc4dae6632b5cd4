package dev.tewheel.runtime.internal.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.internal.host.LinkerHost;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every libc function te-runtime calls through its one downcall shape, checked against what the system says by other
 * means: /proc/self/maps, the JDK's own view of the process, and errno's text.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LibcTest {
  @TempDir Path dir;

  @Test
  void dlopenDlsymAndTheMappedFileOfLibc() throws IOException {
    Libc.Opened libc = Libc.dlopen("libc.so.6", Libc.RTLD_NOW);
    assertTrue(libc.ok(), libc.error());
    try {
      Path mapped = LinkerHost.mappedFile(libc.handle()).orElseThrow();
      assertTrue(mappedFromProcMaps("libc.so.6").stream().anyMatch(p -> same(p, mapped)),
          mapped + " is libc as /proc/self/maps lists it");
      assertEquals(Optional.of(mapped), LinkerHost.loadedFile("libc.so.6"));
      Optional<MemorySegment> strlen = Libc.dlsym(libc.handle(), "strlen");
      assertTrue(strlen.isPresent() && strlen.get().address() != 0);
      assertEquals(Optional.empty(), Libc.dlsym(libc.handle(), "te_wheel_no_such_function"));
    } finally {
      Libc.dlclose(libc.handle());
    }
  }

  @Test
  void dlopenFailureCarriesDlerrorsText() throws IOException {
    Path missing = dir.resolve("libmissing.so");
    Libc.Opened opened = Libc.dlopen(missing.toString(), Libc.RTLD_NOW);
    assertFalse(opened.ok());
    assertTrue(opened.error().contains(missing.toString()) && opened.error().contains("No such file"),
        opened.error());
    Path notElf = Files.writeString(dir.resolve("libtext.so"), "not a library");
    Libc.Opened refused = Libc.dlopen(notElf.toString(), Libc.RTLD_NOW);
    assertFalse(refused.ok());
    assertTrue(refused.error().contains(notElf.toString()), refused.error());
    assertEquals(Optional.empty(), LinkerHost.loadedFile("libte_wheel_never_loaded.so.7"));
  }

  @Test
  void environmentAsNativeCodeSeesIt() throws IOException {
    assertEquals(System.getenv("PATH"), Libc.getenv("PATH"));
    assertNull(Libc.getenv("TE_WHEEL_LIBC_TEST_UNSET"));
    String name = "TE_WHEEL_LIBC_TEST_" + ProcessHandle.current().pid();
    String value = "/opt/ü/nccl_ep";
    Libc.setenv(name, value, false);
    assertEquals(value, Libc.getenv(name), "UTF-8 both ways");
    Libc.setenv(name, "other", false);
    assertEquals(value, Libc.getenv(name), "overwrite 0 keeps the value");
    Libc.setenv(name, "other", true);
    assertEquals("other", Libc.getenv(name));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Libc.setenv("A=B", "x", true));
    assertTrue(e.getMessage().contains("A=B"), e.getMessage());
  }

  @Test
  void uidAndMountFlags() throws IOException {
    // /proc/self belongs to the process's effective uid.
    assertEquals(((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue(), Libc.geteuid());
    // /proc's own mount options say whether it is noexec; statvfs must agree.
    boolean procNoexec = Files.readAllLines(Path.of("/proc/mounts")).stream().map(line -> line.split(" "))
        .filter(f -> f.length > 3 && f[1].equals("/proc")).reduce((a, b) -> b).orElseThrow()[3]
        .matches("(.*,)?noexec(,.*)?");
    assertEquals(procNoexec, (Libc.mountFlags(Path.of("/proc")) & Libc.ST_NOEXEC) != 0);
    IOException e = assertThrows(IOException.class, () -> Libc.mountFlags(dir.resolve("missing")));
    assertTrue(e.getMessage().contains("No such file or directory (errno 2)"), e.getMessage());
  }

  private static java.util.List<Path> mappedFromProcMaps(String name) throws IOException {
    return Files.readAllLines(Path.of("/proc/self/maps")).stream()
        .map(line -> line.substring(line.indexOf('/') < 0 ? line.length() : line.indexOf('/')))
        .filter(path -> path.endsWith("/" + name)).map(Path::of).distinct().toList();
  }

  private static boolean same(Path a, Path b) {
    try {
      return Files.isSameFile(a, b);
    } catch (IOException e) {
      return false;
    }
  }
}
