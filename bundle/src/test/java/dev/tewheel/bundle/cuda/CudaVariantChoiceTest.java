package dev.tewheel.bundle.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tewheel.bundle.cuda.CudaVariantChoice.Choice;
import dev.tewheel.bundle.cuda.CudaVariantChoice.Signals;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The choice among bundles of several CUDA variants: the configured one, else the CUDA runtime that would load. */
class CudaVariantChoiceTest {
  private record Bundle(String where, Optional<Integer> variant, String variantSource)
      implements CudaVariantChoice.Candidate {}

  private static Bundle bundle(String where, Integer variant) {
    return new Bundle(where, Optional.ofNullable(variant), "test");
  }

  private static Signals signals(Integer driver, Map<Integer, Path> cudarts) {
    return new Signals(Optional.ofNullable(driver), driver == null ? "libcuda.so.1 not found" : "cuDriverGetVersion",
        cudarts);
  }

  private static final List<Bundle> BOTH = List.of(bundle("cu12.jar", 12), bundle("cu13.jar", 13));
  private static final Path CUDART13 = Path.of("/opt/cuda/lib/libcudart.so.13");

  @Test
  void theDriverBoundsTheVariantAndTheCudartFoundDecidesWithinIt() throws Exception {
    Choice<Bundle> drivenOnly = CudaVariantChoice.choose(BOTH, null, () -> signals(13000, Map.of()));
    assertEquals("cu13.jar", drivenOnly.chosen().where());
    assertEquals("cu13: the driver supports CUDA 13.0 (cuDriverGetVersion), the newest variant it runs; no"
        + " libcudart.so.N of a bundle's variant is found", drivenOnly.reason());
    assertEquals(List.of(), drivenOnly.warnings());

    // A 12.9 driver cannot run CUDA 13's runtime, whatever libcudart is found.
    Choice<Bundle> old = CudaVariantChoice.choose(BOTH, null, () -> signals(12090, Map.of(13, CUDART13)));
    assertEquals("cu12.jar", old.chosen().where());
    assertEquals("cu12: the driver supports CUDA 12.9 (cuDriverGetVersion), the newest variant it runs;"
        + " libcudart.so.13 is found at " + CUDART13, old.reason());

    Choice<Bundle> cudart = CudaVariantChoice.choose(BOTH, null, () -> signals(null, Map.of(13, CUDART13)));
    assertEquals("cu13.jar", cudart.chosen().where());
    assertEquals("cu13: libcudart.so.13 is found at " + CUDART13 + " and no CUDA driver answered (libcuda.so.1 not"
        + " found)", cudart.reason());

    Choice<Bundle> both = CudaVariantChoice.choose(BOTH, null,
        () -> signals(13010, Map.of(12, Path.of("/a/libcudart.so.12"), 13, CUDART13)));
    assertEquals("cu13.jar", both.chosen().where());

    Choice<Bundle> tooOld = CudaVariantChoice.choose(BOTH, null, () -> signals(11080, Map.of()));
    assertEquals("cu12.jar", tooOld.chosen().where());
    assertEquals(List.of("no class-path bundle's CUDA variant runs on this driver, which supports CUDA 11 at most;"
        + " using the oldest, cu12. Update the NVIDIA driver, or put a cu11 jar on the class path"),
        tooOld.warnings());
  }

  @Test
  void noSignalOrTwoBundlesOfOneVariantWarn() throws Exception {
    Choice<Bundle> none = CudaVariantChoice.choose(List.of(bundle("cu13.jar", 13), bundle("cu12.jar", 12)), null,
        () -> signals(null, Map.of()));
    assertEquals("cu13.jar", none.chosen().where(), "the first on the class path");
    assertEquals(List.of("nothing says which CUDA runtime would load (no CUDA driver answered (libcuda.so.1 not"
        + " found); no libcudart.so.N of a bundle's variant is found), so the first class-path bundle is used,"
        + " cu13.jar. Set -Dte.cudaVariant=<major> to choose"), none.warnings());

    List<Bundle> three = List.of(bundle("a.jar", 12), bundle("b.jar", 12), bundle("u.jar", null));
    Choice<Bundle> twice = CudaVariantChoice.choose(three, null, () -> signals(12090, Map.of()));
    assertEquals("a.jar", twice.chosen().where());
    assertEquals(2, twice.warnings().size(), twice.warnings().toString());
    assertEquals("the CUDA variant of u.jar (CUDA variant unknown, test) is unknown, so it was not chosen. Make the"
        + " jar with te:jar-wheel-lib given cudaMajor", twice.warnings().get(0));
    assertEquals("2 class-path bundles are cu12: a.jar, b.jar; using the first, a.jar. Keep one jar per CUDA"
        + " variant on the class path", twice.warnings().get(1));
  }

  @Test
  void theConfiguredVariantWinsAndOneNoBundleHasIsRefused() throws Exception {
    Choice<Bundle> configured = CudaVariantChoice.choose(BOTH, 13, () -> {
      throw new AssertionError("no signal is read when the variant is configured");
    });
    assertEquals("cu13.jar", configured.chosen().where());
    assertEquals("cu13: system property te.cudaVariant", configured.reason());
    CudaVariantChoice.Refused refused =
        assertThrows(CudaVariantChoice.Refused.class, () -> CudaVariantChoice.choose(BOTH, 11, () -> null));
    assertEquals("system property te.cudaVariant asks for cu11, but no class-path bundle is: cu12.jar (cu12, test);"
        + " cu13.jar (cu13, test). Put the cu11 jar on the class path, or set te.cudaVariant to a variant there",
        refused.getMessage());
  }
}
