package dev.tewheel.core.check.deps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.cuda.CudaSonames;
import dev.tewheel.core.requirement.Requirement;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The distribution table agrees with CUDA-VARIANT's SONAME majors, and pip's spellings of a name find its row. */
class NvidiaDistributionsTest {
  private static final List<String> STEMS = List.of("libcudart", "libcublas", "libcublasLt", "libnvrtc",
      "libnvJitLink", "libcufft", "libcusolver", "libcupti");

  @Test
  void everyCudaSonameOfEachMajorIsInstalledByADistributionOfThatMajor() {
    for (int major : CudaSonames.cudaMajors()) {
      for (String stem : STEMS) {
        String soname = CudaSonames.soname(stem, major).orElseThrow();
        assertTrue(NvidiaDistributions.providing(soname, major).isPresent(), soname + " for CUDA " + major);
        NvidiaDistributions.providingAny(soname).forEach(d -> assertEquals(major, d.cudaMajor(),
            soname + " is CUDA " + major + "'s alone, yet " + d.name() + " installs it"));
      }
    }
  }

  @Test
  void namesAreCanonicalAndFoundUnderPipsOtherSpellings() {
    for (NvidiaDistributions.Distribution d : NvidiaDistributions.all()) {
      assertEquals(Requirement.canonicalize(d.name()), d.name());
      assertTrue(d.folder().startsWith("nvidia/") && d.folder().endsWith("/lib"), d.folder());
      assertEquals(d, NvidiaDistributions.named(d.name().toUpperCase(java.util.Locale.ROOT).replace('-', '_'))
          .orElseThrow());
    }
    assertEquals(List.of("nvidia-nccl-cu12", "nvidia-nccl-cu13"), NvidiaDistributions.providingAny("libnccl.so.2")
        .stream().map(NvidiaDistributions.Distribution::name).toList());
  }
}
