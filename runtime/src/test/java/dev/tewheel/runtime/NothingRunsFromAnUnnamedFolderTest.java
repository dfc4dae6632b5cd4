package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.cli.Main;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The diagnostics report ran {@code nvcc --version} found through an empty PATH entry (the current folder), and the
 * NCCL gate let dlopen take {@code ./libnccl.so.2} through an empty LD_LIBRARY_PATH entry. Run in a folder someone
 * else filled, with such entries in both lists, the report (with and without {@code --load}) now runs and loads
 * nothing from there, and says which entries it skipped.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class NothingRunsFromAnUnnamedFolderTest {
  @TempDir Path temp;

  @Test
  void theReportWithAndWithoutLoadRunsNothingFromTheCurrentFolderAndNamesTheEntriesItSkipped() throws Exception {
    Path work = Files.createDirectories(temp.resolve("work"));
    Path marks = Files.createDirectories(temp.resolve("marks"));
    // What someone left in the folder the report runs in: an nvcc, an NCCL and an NVRTC whose code leaves a mark.
    Path nvcc = work.resolve("nvcc");
    Files.writeString(nvcc, "#!/bin/sh\necho ran >> " + marks.resolve("nvcc") + "\necho 'Cuda compilation tools,"
        + " release 99.9, V99.9.99'\n");
    assertTrue(nvcc.toFile().setExecutable(true));
    MarkerLibraries.nccl(work.resolve("libnccl.so.2"), "libnccl.so.2", "planted", marks.resolve("nccl"));
    MarkerLibraries.nccl(work.resolve("libnvrtc.so"), "libnvrtc.so.13", "planted", marks.resolve("nvrtc"));
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));

    for (boolean load : new boolean[] {false, true}) {
      List<String> args = new ArrayList<>(List.of("--wheel-lib", wheelLib.toString()));
      if (load) {
        args.add("--load");
      }
      // TE's CUDA libraries skipped but NVRTC, which the search would take from the current folder.
      List<String> jvm = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED", "-Dte.defaultCudaRoot="));
      for (String name : List.of("cudart", "cublasLt", "cublas", "cudnn", "curand")) {
        jvm.add("-Dte.native." + name + ".skip=true");
      }
      Path logs = temp.resolve("logs-" + load);
      Process child = ChildJvm.start(ChildJvm.command(jvm, null, Main.class, args), Map.of(
          "PATH", ":/usr/bin:/bin:bin",
          "LD_LIBRARY_PATH", "::lib:" + StandIns.cudaLibDir(),
          "XDG_CACHE_HOME", temp.resolve("xdg").toString()), logs, work);
      ChildJvm.Result result = ChildJvm.finish(child, logs);

      String what = (load ? "with" : "without") + " --load: " + result;
      try (var left = Files.list(marks)) {
        assertEquals(List.of(), left.toList(), "nothing from the current folder ran " + what);
      }
      assertEquals(1, result.exit(), what); // not available (exit 1; 2 is a usage error): the only NCCL is the planted one
      String out = result.out();
      assertTrue(out.contains("the PATH entry '' (the current folder) is skipped"), what);
      assertTrue(out.contains("the PATH entry 'bin' (relative, so a folder below the current one) is skipped"), what);
      assertTrue(out.contains("nvcc: the PATH entry '' (the current folder) holds " + nvcc + ", which NCCL EP's JIT"
          + " would run"), what);
      assertTrue(out.contains("the LD_LIBRARY_PATH entry '' (the current folder) is skipped"), what);
      assertTrue(out.contains("the LD_LIBRARY_PATH entry 'lib' (relative, so a folder below the current one) is"
          + " skipped"), what);
      assertTrue(out.contains("the LD_LIBRARY_PATH entry '' (the current folder) holds " + work.resolve("libnccl.so.2")
          + ", which glibc's search would take"), what);
      assertTrue(out.contains("libnccl.so.2 does not load: the loader's search finds none outside those entries. Add"
          + " its folder to LD_LIBRARY_PATH by its absolute path"), what);
      assertFalse(out.contains("99.9"), what);
    }
  }
}
