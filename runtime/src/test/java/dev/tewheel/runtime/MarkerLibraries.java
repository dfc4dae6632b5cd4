package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tewheel.bundle.ncclep.NcclEpFunctions;
import dev.tewheel.standins.Gcc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Small libraries built here by gcc whose constructor appends a word to a marker file: proof of whether they ran.
 * Built in pairs from one source with words of equal length ("genuine", "foreign"), so both of a pair have the same
 * size and a swap passes a size check; only their bytes (and so their SHA-256) differ.
 */
final class MarkerLibraries {
  private MarkerLibraries() {}

  private static final String CONSTRUCTOR = """
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
      """;

  /** A libnccl.so.2 look-alike: {@code ncclGetVersion} reports 2.30.4; SONAME as given. */
  static Path nccl(Path out, String soname, String who, Path marker) throws Exception {
    return build(out, soname, who, marker, CONSTRUCTOR + "int ncclGetVersion(int *v) { *v = 23004; return 0; }\n",
        List.of());
  }

  /**
   * An NCCL EP library (SONAME libnccl_ep.so.0, version 0.1.0) with every function of the API; it NEEDS
   * libnccl.so.2 and calls ncclGetVersion, so with RTLD_NOW it loads only where that DT_NEEDED binds.
   *
   * @param nccl a libnccl.so.2 to link against (only its SONAME ends up in the library)
   */
  static Path ncclEp(Path out, String who, Path marker, Path nccl) throws Exception {
    StringBuilder source = new StringBuilder(CONSTRUCTOR).append("int ncclGetVersion(int *v);\n");
    for (String function : NcclEpFunctions.ALL) {
      source.append(function.equals("ncclEpGetVersion")
          ? "int ncclEpGetVersion(int *v) { int n; if (ncclGetVersion(&n) != 0) return 3; *v = 100; return 0; }\n"
          : "int " + function + "(void) { return 0; }\n");
    }
    return build(out, "libnccl_ep.so.0", who, marker, source.toString(), List.of("-L" + nccl.getParent(),
        "-Wl,--no-as-needed", "-l:" + nccl.getFileName()));
  }

  /** A libtransformer_engine.so needing nothing but libc. */
  static Path transformerEngine(Path out, String who, Path marker) throws Exception {
    return build(out, "libtransformer_engine.so", who, marker, CONSTRUCTOR + "int nvte_marker(void) { return 1; }\n",
        List.of());
  }

  /** Asserts that a pair can stand in for each other by size: a swap must be caught by the bytes. */
  static void assertSameSize(Path a, Path b) throws Exception {
    assertEquals(Files.size(a), Files.size(b), a + " and " + b + " must have one size for the swap to pass a size"
        + " check");
  }

  private static Path build(Path out, String soname, String who, Path marker, String source, List<String> link)
      throws Exception {
    // One source name for every library: the name is in the symbol table, and a pair must have one size.
    Path c = Files.createTempDirectory("marker-library").resolve("library.c");
    Files.writeString(c, source);
    List<String> args = new ArrayList<>(List.of("-shared", "-fPIC", "-O1", "-o", out.toString(), "-Wl,-soname,"
        + soname, "-DMARKER=\"" + marker + "\"", "-DWHO=\"" + who + "\"", c.toString()));
    args.addAll(link);
    Gcc.run(args);
    Files.delete(c);
    Files.delete(c.getParent());
    return out;
  }
}
