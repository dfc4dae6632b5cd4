package dev.tewheel.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.zip.LargeLibraryTest;
import dev.tewheel.core.wheel.TestWheel;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * te:verify-release holds its memory: a release of four wheels, each carrying a TE library of 200 MB, verified four
 * at a time in a JVM of a 256 MiB heap ({@link GoalInChildJvm}), ends with its verdict, never out of memory.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ReleaseHeapTest {
  private static final int HEAP_MIB = 256;

  @TempDir Path temp;

  @Test
  void fourWheelsOf200MbAreVerifiedAsOneReleaseWithinA256MibHeap() throws Exception {
    Path big = LargeLibraryTest.grow(StandIns.transformerEngine(), 200L << 20, temp.resolve("libtransformer_engine.so"));
    Path release = Files.createDirectories(temp.resolve("release"));
    List<String> wheels = new ArrayList<>();
    for (int major : List.of(12, 13)) {
      for (String platform : List.of("manylinux_2_34_x86_64", "manylinux_2_35_x86_64")) {
        String dist = "transformer_engine_cu" + major;
        Path whl = new TestWheel().add("transformer_engine/__init__.py", "# 2.9.0\n".getBytes())
            .add(TestWheel.PREFIX + "/libtransformer_engine.so", big)
            .add(TestWheel.PREFIX + "/libnccl_ep.so", StandIns.ncclEpLibrary())
            .addTree(TestWheel.PREFIX + "/nccl_ep/include", StandIns.ncclEpHome().resolve("include"))
            .fileName(dist + "-2.9.0-py3-none-" + platform + ".whl").distInfo(dist + "-2.9.0.dist-info")
            .write(release);
        wheels.add(whl.toString());
      }
    }
    List<String> args = new ArrayList<>(List.of("manylinux_2_34_x86_64,manylinux_2_35_x86_64"));
    args.addAll(wheels);
    GoalInChildJvm.Result result = GoalInChildJvm.run(temp, HEAP_MIB, 540, "release", args.toArray(String[]::new));
    assertTrue(result.exit() != GoalInChildJvm.OUT_OF_MEMORY, "out of memory at " + HEAP_MIB + " MiB: "
        + result.describe());
    assertEquals(GoalInChildJvm.PASSED, result.exit(), result.describe());
    assertTrue(result.console().contains("PASSED: 0 errors, 12 warnings, 0 suppressed; 35 checks on release "
        + wheels.get(0) + " (4 wheels)"), result.describe());
  }
}
