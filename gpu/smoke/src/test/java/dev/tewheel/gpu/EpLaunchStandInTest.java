package dev.tewheel.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher of issue 24 with two ranks in two JVMs on te-wheel's stand-ins: the stand-in NCCL joins the two
 * processes through shared memory and the stand-in NCCL EP moves tokens between them, so CI runs the same program,
 * the same unique-id hand-over and the same checks as a two-GPU run.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class EpLaunchStandInTest {
  private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");

  record Run(int status, String output) {}

  /** A wheel_lib in TE's default layout from the stand-ins (no manifest). */
  private static Path wheelLib(Path folder) throws IOException {
    Files.createDirectories(folder.resolve("nccl_ep"));
    Files.copy(StandIns.transformerEngine(), folder.resolve("libtransformer_engine.so"));
    Files.copy(StandIns.ncclEpLibrary(), folder.resolve("libnccl_ep.so"));
    Path include = StandIns.ncclEpHome().resolve("include");
    try (Stream<Path> files = Files.walk(include)) {
      for (Path p : files.toList()) {
        Path target = folder.resolve("nccl_ep/include").resolve(include.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
    return folder;
  }

  private static Run launch(Path temp, String... extra) throws Exception {
    List<String> command = new ArrayList<>(List.of(JAVA.toString(), "--enable-native-access=ALL-UNNAMED", "-cp",
        System.getProperty("java.class.path"), EpLaunch.class.getName(), "--ranks", "2", "--stand-ins",
        "--wheel-lib", wheelLib(temp.resolve("wheel_lib")).toString(),
        "--nccl-library", StandIns.ncclLibDir().resolve("libnccl.so.2").toString(),
        "--work", temp.resolve("work").toString(), "--grace-s", "30", "--timeout-s", "240"));
    command.addAll(List.of(extra));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().keySet().removeIf(n -> n.matches("RANK|WORLD_SIZE|LOCAL_RANK|OMPI_COMM_WORLD_.*|NCCL_.*"
        + "|TE_EP_ID_FILE|LD_PRELOAD"));
    // NCCL EP NEEDS libcuda.so.1: the stand-in driver, found as the real one would be
    builder.environment().put("LD_LIBRARY_PATH", StandIns.cudaLibDir().toString());
    builder.environment().put("TE_STANDIN_NCCL_TIMEOUT_S", "60");
    builder.environment().put("NCCL_EP_JIT_CACHE_DIR", Files.createDirectories(temp.resolve("jit")).toString());
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the launcher did not exit:\n" + out);
    return new Run(process.exitValue(), out);
  }

  @Test
  void twoRanksInTwoJvmsPassEveryCaseWithEveryElementChecked(@TempDir Path temp) throws Exception {
    Run run = launch(temp);
    assertEquals(0, run.status(), run.output());
    assertTrue(run.output().contains("EP PASS: 2 rank(s), every rank passed every case"), run.output());
    assertFalse(run.output().contains("FAIL"), run.output());
    for (int rank = 0; rank < 2; rank++) {
      assertTrue(run.output().contains("[rank " + rank + "] RANK " + rank + " RESULT PASS"), run.output());
      assertTrue(run.output().contains("NCCL_NVLS_ENABLE=0"), run.output());
      for (EpCase c : EpCase.ALL) {
        String prefix = "[rank " + rank + "] PASS rank " + rank + " " + c.name() + ": ";
        // in the masked case rank 1 sits out the first round: rank 0 masked it
        for (String which : c.masked() && rank != 0 ? List.of("warm") : List.of("first", "warm")) {
          assertTrue(run.output().contains(prefix + "dispatch (" + which + "): "), c.name() + " " + which + "\n"
              + run.output());
          assertTrue(run.output().contains(prefix + "combine (" + which + "): " + (long) c.tokens() * c.hidden()
              + " of " + (long) c.tokens() * c.hidden() + " elements"), c.name() + "\n" + run.output());
          assertTrue(run.output().contains("[rank " + rank + "] TIME rank " + rank + " " + c.name()), run.output());
        }
        assertTrue(run.output().contains(prefix + "case " + c.name() + ": every rank passed"), run.output());
      }
    }
    // the masked case: rank 0 ran alone with rank 1 masked, then both after the clean
    assertTrue(run.output().contains("[rank 0] PASS rank 0 ll-em-mask-h1024-t128: ncclEpMaskQuery after"
        + " ncclEpMaskUpdate: [1, 0]"), run.output());
    assertTrue(run.output().contains("over the experts of active ranks only"), run.output());
    // every rank got the id through the file, which rank 0 removed once all had joined
    assertFalse(Files.exists(temp.resolve("work/nccl-unique-id")));
    assertTrue(Files.readString(temp.resolve("work/rank-1.log")).contains("RANK 1 RESULT PASS"));
  }

  @Test
  void aRankThatDiesIsNamedAndTheLaunchFails(@TempDir Path temp) throws Exception {
    Run run = launch(temp, "--cases", "ll-em-h1024", "--fail-rank", "1");
    assertNotEquals(0, run.status(), run.output());
    assertTrue(run.output().contains("EP FAIL: rank 1 failed first (exit status 3)"), run.output());
    // the survivor was told by the stand-in NCCL that its peer is gone, instead of waiting forever
    assertTrue(run.output().contains("rank 1 (pid"), run.output());
    assertTrue(run.output().contains("; rank 0 exit status 1"), run.output());
  }
}
