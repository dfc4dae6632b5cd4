package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
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
 * remembered per process.
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

  static void walk(Path temp) throws Exception {
    NativeWorld world = TeRuntime.builder().wheelLib(temp.resolve("site/transformer_engine/wheel_lib")).build()
        .nativeWorld();
    for (String name : List.of("cudart", "cublasLt", "cublas", "cudnn", "nvrtc", "curand")) {
      NativeLibrary library = world.library(name).orElseThrow();
      assertEquals("system", library.foundBy(), library.toString());
      assertTrue(library.file().orElseThrow().getFileName().toString().startsWith("lib" + name),
          library.toString());
    }
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
