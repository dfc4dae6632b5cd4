package dev.tewheel.core.assemble;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.standins.StandIns;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real kill: another JVM assembles a 256 MB library and gets SIGKILL in the middle of the copy. The previous tree
 * must survive untouched, and the next run must clean up what the killed one left.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class KilledRunTest {
  @TempDir Path temp;

  /**
   * Entry point of the JVM that gets killed: assembles args[0] (TE library) and args[1] (NCCL EP) into args[2], and
   * at its first progress line (the library partly copied into the staging folder) creates args[3] and stops there.
   */
  public static void main(String[] args) throws Exception {
    new Assembler(line -> {
      if (line.startsWith("copying ")) {
        try {
          Files.createFile(Path.of(args[3]));
          new java.util.concurrent.CountDownLatch(1).await();
        } catch (java.io.IOException | InterruptedException e) {
          throw new IllegalStateException(e);
        }
      }
    }).assemble(AssembleRequest.of(Path.of(args[0]), Path.of(args[1]), Path.of(args[2])));
  }

  @Test
  void aKillInTheMiddleOfACopyLeavesThePreviousTreeAndTheNextRunCleansUp() throws Exception {
    Path out = temp.resolve("wheel_lib");
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(), out));
    byte[] manifest = Files.readAllBytes(out.resolve(Layout.MANIFEST));
    byte[] te = Files.readAllBytes(out.resolve("libtransformer_engine.so"));

    // A valid ELF library made large by a sparse tail: the checks pass, the copy takes a while.
    Path big = temp.resolve("big/libtransformer_engine.so");
    Files.createDirectories(big.getParent());
    Files.copy(StandIns.transformerEngine(), big);
    try (RandomAccessFile file = new RandomAccessFile(big.toFile(), "rw")) {
      file.setLength(256L << 20);
    }
    Path stopped = temp.resolve("stopped");
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), KilledRunTest.class.getName(),
        big.toString(), StandIns.ncclEpHome().toString(), out.toString(), stopped.toString())
        .redirectErrorStream(true).redirectOutput(temp.resolve("child.log").toFile()).start();
    while (!Files.exists(stopped) && child.isAlive()) {
      Thread.sleep(10); // until the child says it stands in the middle of the copy
    }
    assertTrue(Files.exists(stopped), "the child never started copying: " + Files.readString(temp.resolve("child.log")));
    Path partial = staged(temp).filter(p -> p.getFileName().toString().equals("libtransformer_engine.so"))
        .orElseThrow();
    child.destroyForcibly(); // SIGKILL: no finally block, no shutdown hook runs
    assertTrue(child.waitFor(30, TimeUnit.SECONDS));
    assertTrue(Files.size(partial) < (256L << 20), "killed before the copy finished");

    assertArrayEquals(manifest, Files.readAllBytes(out.resolve(Layout.MANIFEST)), "previous manifest survives");
    assertArrayEquals(te, Files.readAllBytes(out.resolve("libtransformer_engine.so")), "previous library survives");

    List<String> log = new ArrayList<>();
    AssembleResult next = new Assembler(log::add)
        .assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(), out));
    assertTrue(log.stream().anyMatch(l -> l.contains(".wheel_lib.staging-") && l.contains("left by an interrupted run")),
        log.toString());
    assertEquals(Optional.empty(), staged(temp));
    assertFalse(next.manifest().files().isEmpty());
  }

  private static Optional<Path> staged(Path parent) throws Exception {
    try (Stream<Path> entries = Files.list(parent)) {
      List<Path> staging = entries.filter(p -> p.getFileName().toString().startsWith(".wheel_lib.staging-")).toList();
      for (Path folder : staging) {
        Path file = folder.resolve("libtransformer_engine.so");
        if (Files.exists(file)) {
          return Optional.of(file);
        }
      }
      return staging.isEmpty() ? Optional.empty() : Optional.of(staging.get(0));
    }
  }
}
