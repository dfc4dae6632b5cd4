package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.report.NativeLibrary;
import dev.tewheel.runtime.report.NativeWorld;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walk of a system root (CUDA_HOME) meets link loops and second links to folders it already walked, as real
 * toolkits have ({@code lib64 -> targets/x86_64-linux/lib}): each is skipped and said, by file key, and the walk
 * goes on, so the libraries beside them are still found and nothing loops. Runs in a fresh JVM: the walk is
 * remembered per process. The same for folders that cannot be read.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SystemRootWalkTest {
  @TempDir Path temp;

  @Test
  void aLinkLoopInTheCudaTreeIsSkippedAndSaidWhileTheWalkGoesOn() throws Exception {
    Path cuda = temp.resolve("cuda");
    FakeWorld.toolkit(cuda, 12, false);
    FakeWorld.pipCu12(temp.resolve("site"));
    FakeWorld.teWheel(temp.resolve("site"), 12);
    // Loops at every level, so that whatever order the folders are listed in, one comes before the libraries.
    Files.createSymbolicLink(cuda.resolve("aaa-loop"), Path.of("."));
    Files.createSymbolicLink(cuda.resolve("lib64/aaa-up"), Path.of(".."));
    Files.createSymbolicLink(cuda.resolve("lib64/zzz-self"), Path.of("."));
    Files.createSymbolicLink(cuda.resolve("zzz-loop"), Path.of("lib64/aaa-up"));
    // A second path to the same folder: walked once.
    Files.createSymbolicLink(cuda.resolve("lib"), Path.of("lib64"));
    FreshJvm.run(getClass(), "walk", temp, Map.of("CUDA_HOME", cuda.toString()), List.of("-Dte.defaultCudaRoot="));
  }

  /**
   * Unreadable folders at every level: skipped and named, the walk goes on. The child JVM runs in a user namespace
   * without any mapping ({@code unshare -U}), as an unprivileged user even when the tests run as root, so mode 000
   * really locks the folders.
   */
  @Test
  void anUnreadableFolderInTheCudaTreeIsSkippedAndSaidWhileTheWalkGoesOn() throws Exception {
    Path cuda = temp.resolve("cuda");
    FakeWorld.toolkit(cuda, 12, false);
    FakeWorld.pipCu12(temp.resolve("site"));
    FakeWorld.teWheel(temp.resolve("site"), 12);
    List<Path> locked = List.of(cuda.resolve("aaa-private"), cuda.resolve("lib64/aaa-private"),
        cuda.resolve("zzz-private"));
    for (Path folder : locked) {
      Files.createDirectories(folder.resolve("inner"));
    }
    try (var all = Files.walk(temp)) {
      for (Path p : all.toList()) {
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxr-xr-x"
            : Files.isExecutable(p) ? "rwxr-xr-x" : "rw-r--r--"));
      }
    }
    for (Path folder : locked) {
      Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("---------"));
    }
    try {
      List<String> command = new ArrayList<>(List.of("unshare", "-U"));
      command.addAll(ChildJvm.command(List.of("--enable-native-access=ALL-UNNAMED", "-Dte.defaultCudaRoot="), null,
          FreshJvm.class, List.of(SystemRootWalkTest.class.getName(), "unreadable", temp.toString())));
      ChildJvm.Result result = ChildJvm.run(command, Map.of("CUDA_HOME", cuda.toString()),
          temp.resolve("logs-unreadable"));
      assertEquals(0, result.exit(), result.toString());
    } finally {
      for (Path folder : locked) {
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
      }
    }
  }

  static void unreadable(Path temp) throws Exception {
    NativeWorld world = libraries(temp);
    Path cuda = temp.resolve("cuda");
    String prefix = "while searching environment CUDA_HOME=" + cuda + " for libraries, skipped ";
    for (String folder : List.of("aaa-private", "lib64/aaa-private", "zzz-private")) {
      assertTrue(world.warnings().contains(prefix + cuda.resolve(folder) + " (unreadable: " + cuda.resolve(folder)
          + ")"), world.warnings().toString());
    }
  }

  private static NativeWorld libraries(Path temp) {
    NativeWorld world = TeRuntime.builder().wheelLib(temp.resolve("site/transformer_engine/wheel_lib")).build()
        .nativeWorld();
    for (String name : List.of("cudart", "cublasLt", "cublas", "cudnn", "nvrtc", "curand")) {
      NativeLibrary library = world.library(name).orElseThrow();
      assertEquals(NativeLibrary.FoundBy.SYSTEM, library.foundBy(), library.toString());
      assertTrue(library.file().orElseThrow().getFileName().toString().startsWith("lib" + name),
          library.toString());
    }
    return world;
  }

  static void walk(Path temp) throws Exception {
    NativeWorld world = libraries(temp);
    Path cuda = temp.resolve("cuda");
    List<String> walkWarnings = world.warnings().stream().filter(w -> w.startsWith("while searching")).toList();
    String prefix = "while searching environment CUDA_HOME=" + cuda + " for libraries, skipped ";
    assertTrue(walkWarnings.contains(prefix + cuda.resolve("aaa-loop") + " (a link back to the folder " + cuda
        + " that contains it: a loop, not walked)"), walkWarnings.toString());
    assertTrue(walkWarnings.contains(prefix + cuda.resolve("lib64/aaa-up") + " (a link back to the folder " + cuda
        + " that contains it: a loop, not walked)") || walkWarnings.stream().anyMatch(w -> w.contains("aaa-up")),
        walkWarnings.toString());
    assertTrue(walkWarnings.stream().allMatch(w -> w.startsWith(prefix)), walkWarnings.toString());
  }
}
