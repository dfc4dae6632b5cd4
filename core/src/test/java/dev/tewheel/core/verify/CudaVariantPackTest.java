package dev.tewheel.core.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.check.CudaStandIns;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.pack.PackRequest;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pack and verify hold the libraries to the wheel's CUDA variant: a TE that NEEDS the CUDA 13 runtime (linked by gcc
 * against the libcudart.so.13 stand-in) packs as cu13, never as cu12, and a .whl's {@code _cuNN} is the variant.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CudaVariantPackTest {
  private static final FileTime TIME = FileTime.from(Instant.parse("2026-01-01T00:00:00Z"));

  @TempDir Path temp;

  /** A staged tree whose wheel_lib is assembled from a TE that NEEDS libcudart.so.13 and the NCCL EP stand-in. */
  private Path staging(String name) throws Exception {
    Path te = CudaStandIns.transformerEngineOnCudart13(temp.resolve(name + "-te"));
    Path staging = temp.resolve(name);
    Path pkg = Files.createDirectories(staging.resolve("transformer_engine"));
    Files.writeString(pkg.resolve("__init__.py"), "__version__ = '2.9.0'\n");
    new Assembler(line -> {}).assemble(AssembleRequest.of(te, StandIns.ncclEpHome(), pkg.resolve("wheel_lib"))
        .withTimestamp(TIME).withStateFile(temp.resolve(name + "-state.json")));
    return staging;
  }

  private PackedWheel pack(Path staging, Integer cudaMajor) throws Exception {
    return PackedWheel.packAndVerify(PackRequest.of(staging, "transformer_engine", "2.9.0", "manylinux_2_34_x86_64",
        temp.resolve("dist")).withTimestamp(TIME).withCudaMajor(cudaMajor), VerifyRequest::wheel);
  }

  private static List<Finding> cudaVariant(PackedWheel packed) {
    return packed.verification().orElseThrow().findings().stream().filter(f -> f.checkId().equals("CUDA-VARIANT"))
        .toList();
  }

  @Test
  void aTeNeedingCuda13LibrariesIsRefusedAsCu12AndPassesAsCu13() throws Exception {
    Path staging = staging("staging");
    PackedWheel cu12 = pack(staging, 12);
    assertFalse(cu12.passed(), cu12.verification().toString());
    List<Finding> refused = cudaVariant(cu12);
    assertEquals(1, refused.size(), refused.toString());
    assertEquals(temp.resolve("dist/transformer_engine_cu12-2.9.0-py3-none-manylinux_2_34_x86_64.whl")
        + "!transformer_engine/wheel_lib/libtransformer_engine.so", refused.get(0).file());
    assertEquals("DT_NEEDED libcudart.so.13", refused.get(0).found());
    assertEquals("libcudart.so.12 for a cu12 wheel", refused.get(0).expected());
    assertEquals("build libtransformer_engine.so against CUDA 12, or pack it as cu13: -Dte.cudaMajor=13",
        refused.get(0).fix());
    assertTrue(cu12.location().getFileName().toString().endsWith(".whl.rejected"), cu12.location().toString());

    PackedWheel cu13 = pack(staging, 13);
    assertTrue(cu13.passed(), cu13.verification().toString());
    assertEquals(List.of(), cudaVariant(cu13));
    assertTrue(Files.isRegularFile(temp.resolve("dist/transformer_engine_cu13-2.9.0-py3-none-manylinux_2_34_x86_64.whl")));
  }

  @Test
  void verifyOfAWheelTakesTheVariantFromItsCuSuffixUnlessCudaMajorIsConfigured() throws Exception {
    Path staging = staging("staging");
    // Named _cu12 by hand, with no cudaMajor: the name alone makes it a cu12 wheel, for pack's gate and for verify.
    PackedWheel named = PackedWheel.packAndVerify(PackRequest.of(staging, "transformer_engine_cu12", "2.9.0",
        "manylinux_2_34_x86_64", temp.resolve("named")).withTimestamp(TIME), VerifyRequest::wheel);
    assertFalse(named.passed());
    Path wheel = Files.copy(named.location(), Files.createDirectories(temp.resolve("verify"))
        .resolve("transformer_engine_cu12-2.9.0-py3-none-manylinux_2_34_x86_64.whl"));
    GateReport asCu12 = new Verifier().verify(VerifyRequest.wheel(wheel));
    assertEquals(List.of("CUDA-VARIANT: DT_NEEDED libcudart.so.13 / libcudart.so.12 for a cu12 wheel"),
        asCu12.findings().stream().filter(f -> f.severity() == Severity.ERROR).map(f -> f.checkId() + ": " + f.found() + " / " + f.expected()).toList());

    VerifyRequest plain = VerifyRequest.wheel(wheel);
    VerifyRequest configured = plain.withSettings(plain.settings().withCudaMajor(13));
    GateReport asCu13 = new Verifier().verify(configured);
    // The libraries would pass as cu13, but pip installs this wheel as cu12: a cudaMajor the name contradicts is
    // itself an error, named once, on the wheel.
    assertEquals(List.of("CUDA-VARIANT " + wheel.getFileName() + ": cudaMajor 13 for a wheel named _cu12"),
        asCu13.findings().stream().filter(f -> f.severity() == Severity.ERROR)
            .map(f -> f.checkId() + " " + f.file() + ": " + f.found()).toList());

    PackedWheel unnamed = PackedWheel.packAndVerify(PackRequest.of(staging, "transformer_engine", "2.9.0",
        "manylinux_2_34_x86_64", temp.resolve("unnamed")).withTimestamp(TIME), VerifyRequest::wheel);
    assertTrue(unnamed.passed(), unnamed.verification().toString());
    assertEquals(List.of("INFO"), cudaVariant(unnamed).stream().map(f -> f.severity().toString()).toList(),
        "no variant known: the majors found are reported, not compared");
  }
}
