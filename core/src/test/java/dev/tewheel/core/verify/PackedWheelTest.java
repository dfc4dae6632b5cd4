package dev.tewheel.core.verify;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.pack.PackRequest;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Pack owns its output: the previous wheel survives a failed verification and a kill, and no temporary stays. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PackedWheelTest {
  private static final FileTime TIME = FileTime.from(Instant.parse("2026-01-01T00:00:00Z"));
  static final String WHEEL = "transformer_engine-2.9.0-py3-none-manylinux_2_34_x86_64.whl";

  @TempDir Path temp;

  /** A staged tree: a Python package and wheel_lib assembled from the stand-ins. */
  static Path staging(Path staging) throws Exception {
    Path pkg = Files.createDirectories(staging.resolve("transformer_engine"));
    Files.writeString(pkg.resolve("__init__.py"), "__version__ = '2.9.0'\n");
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(),
        pkg.resolve("wheel_lib")).withTimestamp(TIME).withStateFile(staging.resolveSibling(staging.getFileName()
            + "-state.json")));
    return staging;
  }

  static PackRequest request(Path staging, Path out) {
    return PackRequest.of(staging, "transformer_engine", "2.9.0", "manylinux_2_34_x86_64", out).withTimestamp(TIME);
  }

  /** A staged tree whose TE library is not the one its manifest lists: MANIFEST-DIGESTS fails verification. */
  private Path brokenStaging() throws Exception {
    Path broken = staging(temp.resolve("broken"));
    Files.copy(StandIns.defect(StandIns.Defect.TE_LAZY_BINDING),
        broken.resolve("transformer_engine/wheel_lib/libtransformer_engine.so"), StandardCopyOption.REPLACE_EXISTING);
    return broken;
  }

  private static List<String> names(Path folder) throws IOException {
    try (Stream<Path> entries = Files.list(folder)) {
      return entries.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void aFailedVerificationKeepsThePreviousWheelAndLeavesTheNewOneAsRejected() throws Exception {
    Path dist = temp.resolve("dist");
    PackedWheel good = PackedWheel.packAndVerify(request(staging(temp.resolve("good")), dist), VerifyRequest::wheel);
    assertTrue(good.passed(), good.verification().toString());
    byte[] previous = Files.readAllBytes(dist.resolve(WHEEL));

    PackedWheel bad = PackedWheel.packAndVerify(request(brokenStaging(), dist), VerifyRequest::wheel);
    assertFalse(bad.passed());
    assertTrue(bad.verification().orElseThrow().findings().stream().anyMatch(f -> f.checkId().equals("MANIFEST-DIGESTS")),
        bad.verification().toString());
    assertArrayEquals(previous, Files.readAllBytes(dist.resolve(WHEEL)), "the previous good wheel is untouched");
    assertEquals(dist.resolve(WHEEL + PackedWheel.REJECTED_SUFFIX), bad.location());
    assertEquals(List.of(WHEEL, WHEEL + PackedWheel.REJECTED_SUFFIX), names(dist), "no temporary stays");
    // What was rejected is the new wheel, under its own name again it fails the gate as before.
    Path again = Files.copy(bad.location(), Files.createDirectories(temp.resolve("again")).resolve(WHEEL));
    assertFalse(new Verifier().verify(VerifyRequest.wheel(again)).passed());
  }

  @Test
  void theUnverifiedWheelIsJudgedUnderItsFinalNameWithoutEverSittingAtIt() throws Exception {
    Path dist = temp.resolve("dist");
    Path staged = staging(temp.resolve("good"));
    PackedWheel.packAndVerify(request(staged, dist), VerifyRequest::wheel);
    byte[] previous = Files.readAllBytes(dist.resolve(WHEEL));
    Files.writeString(staged.resolve("transformer_engine/__init__.py"), "__version__ = '2.9.0'  # changed\n");

    AtomicReference<Path> verified = new AtomicReference<>();
    List<String> duringVerification = new ArrayList<>();
    PackedWheel next = PackedWheel.packAndVerify(request(staged, dist), whl -> {
      verified.set(whl);
      try {
        duringVerification.add(Files.mismatch(dist.resolve(WHEEL), whl) == -1 ? "new at final name" : "old at final name");
        duringVerification.add(java.util.Arrays.equals(Files.readAllBytes(dist.resolve(WHEEL)), previous)
            ? "previous bytes" : "other bytes");
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return VerifyRequest.wheel(whl);
    });
    assertTrue(next.passed(), next.verification().toString());
    // Findings name the wheel where it ends, as te:verify-wheel-lib on it would (config.h's baked build paths).
    List<String> files = next.verification().orElseThrow().findings().stream().map(f -> f.file()).toList();
    assertFalse(files.isEmpty());
    assertTrue(files.stream().allMatch(f -> f.startsWith(dist.resolve(WHEEL) + "!transformer_engine/wheel_lib/")
        || f.startsWith(dist.resolve(WHEEL) + "!transformer_engine-2.9.0.dist-info/METADATA")), files.toString());
    assertNotEquals(dist.resolve(WHEEL), verified.get(), "verified at a temporary path");
    assertEquals(WHEEL, verified.get().getFileName().toString(), "under the name whose tags the checks read");
    assertEquals(List.of("old at final name", "previous bytes"), duringVerification);
    assertFalse(Files.exists(verified.get()));
    assertEquals(List.of(WHEEL), names(dist));
    assertEquals(dist.resolve(WHEEL), next.location());
  }

  /**
   * Entry point of the JVM that gets killed: packs args[0] into args[1] with verification, and at its first
   * progress line (a large file half deflated, its spill file written) creates args[2] and stops there for good.
   */
  public static void main(String[] args) throws Exception {
    PackedWheel.packAndVerify(request(Path.of(args[0]), Path.of(args[1])), VerifyRequest::wheel, line -> {
      if (line.startsWith("deflating ")) {
        try {
          Files.createFile(Path.of(args[2]));
          new java.util.concurrent.CountDownLatch(1).await();
        } catch (IOException | InterruptedException e) {
          throw new IllegalStateException(e);
        }
      }
    });
  }

  @Test
  void aKilledPackLeavesThePreviousWheelAndTheNextRunRemovesItsLeftovers() throws Exception {
    Path dist = temp.resolve("dist");
    Path small = staging(temp.resolve("small"));
    PackedWheel.packAndVerify(request(small, dist), VerifyRequest::wheel);
    byte[] previous = Files.readAllBytes(dist.resolve(WHEEL));

    // The same wheel name with a large file: slices spill to a file while the child packs it.
    Path big = staging(temp.resolve("big"));
    try (RandomAccessFile file = new RandomAccessFile(big.resolve("transformer_engine/big.bin").toFile(), "rw")) {
      file.setLength(256L << 20);
    }
    Path stopped = temp.resolve("stopped");
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), PackedWheelTest.class.getName(), big.toString(), dist.toString(),
        stopped.toString()).redirectErrorStream(true).redirectOutput(temp.resolve("child.log").toFile()).start();
    while (!Files.exists(stopped) && child.isAlive()) {
      Thread.sleep(10); // until the child says it stands in the middle of writing
    }
    assertTrue(Files.exists(stopped), "the child never got to deflating: " + Files.readString(temp.resolve("child.log")));
    Path spill = spill(dist);
    assertTrue(spill != null, "the child stopped with its spill file written");
    child.destroyForcibly(); // SIGKILL: no finally block runs
    assertTrue(child.waitFor(30, TimeUnit.SECONDS));
    assertArrayEquals(previous, Files.readAllBytes(dist.resolve(WHEEL)), "the previous wheel survives the kill");
    assertTrue(Files.exists(spill), "the kill left the spill behind");

    PackedWheel next = PackedWheel.packAndVerify(request(small, dist), VerifyRequest::wheel);
    assertTrue(next.passed());
    assertEquals(List.of(WHEEL), names(dist), "the killed run's leftovers are gone");
    assertArrayEquals(previous, Files.readAllBytes(dist.resolve(WHEEL)));
  }

  /** A non-empty spill file anywhere under {@code dist}, or null. */
  private static Path spill(Path dist) throws IOException {
    if (!Files.isDirectory(dist)) {
      return null;
    }
    try (Stream<Path> walk = Files.walk(dist)) {
      return walk.filter(p -> p.getFileName().toString().endsWith(".deflate")).filter(p -> p.toFile().length() > 0)
          .findFirst().orElse(null);
    } catch (java.io.UncheckedIOException | java.nio.file.NoSuchFileException e) {
      return null; // a file went away during the walk
    }
  }
}
