package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Folders "another user" made, as far as this machine allows, and the foreign library such a user would plant.
 * Where the tests run as root (CI here), a folder is handed to uid 65534 (nobody) with {@code chown}; elsewhere it is
 * made writable by everyone, which any other user could then fill. Either way a test asserts on it: nothing is
 * skipped.
 */
public final class OtherUsers {
  public static final int NOBODY = 65534;

  private OtherUsers() {}

  public static boolean root() throws IOException {
    return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue() == 0;
  }

  /**
   * Makes {@code folder} (and what is in it) another user's: uid 65534 when root, else mode 0777.
   *
   * @return the words te-runtime's refusal of it must hold
   */
  public static String handOver(Path folder) throws IOException {
    if (root()) {
      try (var files = Files.walk(folder)) {
        for (Path file : files.toList()) {
          Files.setAttribute(file, "unix:uid", NOBODY, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        }
      }
      return "belongs to uid " + NOBODY;
    }
    Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxrwxrwx"));
    return "is writable by other users (rwxrwxrwx)";
  }

  /** A folder above a cache that another user could change: uid 65534's when root, else 0777 and not sticky. */
  public static String handOverAbove(Path folder) throws IOException {
    if (root()) {
      Files.setAttribute(folder, "unix:uid", NOBODY);
      return "belongs to uid " + NOBODY + " (neither root nor this user";
    }
    Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxrwxrwx"));
    return "is writable by other users (rwxrwxrwx) and not sticky";
  }

  /**
   * A shared library built here by gcc whose constructor appends {@code who} to {@code marker}: proof of whether it
   * ran. SONAME {@code libnccl_ep.so.0}, so a bundle's manifest can list it as NCCL EP.
   */
  public static Path markerLibrary(Path out, String who, Path marker) throws Exception {
    Path source = out.resolveSibling(out.getFileName() + ".c");
    Files.writeString(source, """
        #include <fcntl.h>
        #include <string.h>
        #include <unistd.h>
        __attribute__((constructor)) static void ran(void) {
          int fd = open(MARKER, O_WRONLY | O_CREAT | O_APPEND, 0600);
          if (fd >= 0) {
            ssize_t unused = write(fd, WHO "\\n", strlen(WHO) + 1);
            (void) unused;
            close(fd);
          }
        }
        int te_wheel_marker_library(void) { return 1; }
        """);
    List<String> command = List.of("gcc", "-shared", "-fPIC", "-O1", "-o", out.toString(),
        "-Wl,-soname,libnccl_ep.so.0", "-DMARKER=\"" + marker + "\"", "-DWHO=\"" + who + "\"", source.toString());
    Process gcc;
    try {
      gcc = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new AssertionError("this test builds its foreign stand-in library with gcc, which could not be run ("
          + e.getMessage() + "): install gcc", e);
    }
    String output = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!gcc.waitFor(60, TimeUnit.SECONDS)) {
      gcc.destroyForcibly();
    }
    assertEquals(0, gcc.exitValue(), "gcc " + command + "\n" + output);
    return out;
  }

  /** renameat2(RENAME_EXCHANGE): swaps two names atomically, as a hostile user racing the runtime would. */
  public static void exchange(Path a, Path b) throws Throwable {
    try (Arena arena = Arena.ofConfined()) {
      int rc = (int) Exchange.RENAMEAT2.invokeExact(-100, arena.allocateFrom(a.toString()), -100,
          arena.allocateFrom(b.toString()), 2);
      if (rc != 0) {
        throw new IOException("renameat2(" + a + ", " + b + ", RENAME_EXCHANGE) failed");
      }
    }
  }

  private static final class Exchange {
    static final MethodHandle RENAMEAT2 = Bundles.libc("renameat2", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
  }
}
