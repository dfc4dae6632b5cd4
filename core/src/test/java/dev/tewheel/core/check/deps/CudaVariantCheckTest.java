package dev.tewheel.core.check.deps;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.CudaStandIns;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.ElfFile;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** CUDA-VARIANT on gcc-built libraries that NEED stand-in CUDA libraries of CUDA 12 and 13. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CudaVariantCheckTest {
  @TempDir Path temp;

  private static List<Finding> run(Integer cudaMajor, SubjectFile... files) {
    Subject subject = new Subject("test wheel_lib", Layout.DEFAULT, List.of(files),
        CheckSettings.defaults().withCudaMajor(cudaMajor));
    return CheckCatalogue.check("CUDA-VARIANT").run(subject);
  }

  private static SubjectFile te(Path te) {
    return SubjectFile.onDisk("libtransformer_engine.so", te);
  }

  @Test
  void aCu12WheelRefusesATeThatNeedsLibcudartSo13NamingIt() throws Exception {
    Path te = CudaStandIns.transformerEngineOnCudart13(temp.resolve("te"));
    assertEquals(true, ElfFile.readWithoutSymbols(te).needed().contains("libcudart.so.13"));
    List<Finding> findings = run(12, te(te));
    assertEquals(List.of(new Finding("CUDA-VARIANT", Severity.ERROR, te.toString(), "DT_NEEDED libcudart.so.13",
        "libcudart.so.12 for a cu12 wheel", "build libtransformer_engine.so against CUDA 12, or pack it as cu13:"
            + " -Dte.cudaMajor=13")), findings);
  }

  @Test
  void aCu13WheelPassesTheSameTe() throws Exception {
    Path te = CudaStandIns.transformerEngineOnCudart13(temp.resolve("te"));
    assertEquals(List.of(), run(13, te(te)));
  }

  @Test
  void everyListedLibraryIsHeldToItsOwnMajorOfTheVariant() throws Exception {
    Path cu12 = CudaStandIns.transformerEngine(temp.resolve("cu12"), "libcudart.so.12", "libcublasLt.so.12",
        "libcufft.so.11", "libcusolver.so.11", "libcupti.so.12", "libnvrtc.so.12", "libnvJitLink.so.12",
        "libcurand.so.10", "libcusparse.so.12", "libcudnn.so.9");
    assertEquals(List.of(), run(12, te(cu12)));
    List<Finding> as13 = run(13, te(cu12));
    assertEquals(List.of("libcudart.so.13", "libcublasLt.so.13", "libcufft.so.12", "libcusolver.so.12",
        "libcupti.so.13", "libnvrtc.so.13", "libnvJitLink.so.13").stream().map(n -> n + " for a cu13 wheel").toList(),
        as13.stream().map(Finding::expected).toList(), "curand, cusparse and cuDNN say nothing of the variant");
  }

  @Test
  void twoCudaMajorsInOneWheelAreAnErrorWithoutAVariant() throws Exception {
    Path te = CudaStandIns.transformerEngine(temp.resolve("te"), "libcudart.so.12");
    Path other = CudaStandIns.library(temp.resolve("other"), "libcublas.so.13");
    Path helper = CudaStandIns.transformerEngine(temp.resolve("helper"), "libcublas.so.13");
    List<Finding> findings = run(null, te(te), SubjectFile.onDisk("libte_helper.so", helper));
    assertEquals(1, findings.size(), findings.toString());
    Finding mixed = findings.get(0);
    assertEquals(Severity.ERROR, mixed.severity());
    assertEquals(helper.toString(), mixed.file());
    assertEquals("DT_NEEDED libcublas.so.13 (CUDA 13) in a wheel whose libtransformer_engine.so NEEDS libcudart.so.12"
        + " (CUDA 12)", mixed.found());
    assertEquals("the CUDA libraries of one CUDA major in one wheel", mixed.expected());
    assertEquals(List.of(), run(null, SubjectFile.onDisk("libcublas.so.13", other)), "a library NEEDING none");
  }

  @Test
  void withoutAVariantTheMajorsFoundAreReportedAsNotCompared() throws Exception {
    Path te = CudaStandIns.transformerEngine(temp.resolve("te"), "libcudart.so.13", "libcublas.so.13");
    List<Finding> findings = run(null, te(te));
    assertEquals(List.of(new Finding("CUDA-VARIANT", Severity.INFO, te.toString(),
        "DT_NEEDED libcublas.so.13, libcudart.so.13 (CUDA 13), not compared: the wheel's CUDA variant is unknown (no"
            + " cudaMajor set and no _cuNN in the wheel's name)", "a CUDA variant to compare the CUDA libraries with",
        "set te.cudaMajor (-Dte.cudaMajor=13), or verify the wheel named <distribution>_cu13")), findings);
  }

  @Test
  void aVariantTheTableDoesNotKnowIsReportedNotFailed() throws Exception {
    Path te = CudaStandIns.transformerEngine(temp.resolve("te"), "libcudart.so.13");
    List<Finding> findings = run(11, te(te));
    assertEquals(1, findings.size(), findings.toString());
    assertEquals(Severity.INFO, findings.get(0).severity());
    assertEquals("DT_NEEDED libcudart.so.13 (CUDA 13) in a cu11 wheel, not compared: CUDA-VARIANT knows the SONAMEs"
        + " of cu12, cu13 only", findings.get(0).found());
  }
}
