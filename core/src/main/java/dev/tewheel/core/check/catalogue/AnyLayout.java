package dev.tewheel.core.check.catalogue;

import dev.tewheel.core.check.Check;
import dev.tewheel.core.check.deps.CudaVariantCheck;
import dev.tewheel.core.check.floor.SymbolFloorCheck;
import dev.tewheel.core.check.wheel.WheelZipCheck;
import java.util.Set;

/**
 * What layout=any verifies: any native wheel, not only TE's. The checks about TE's tree (its two libraries, NCCL EP's
 * headers, the manifest) step aside; every shared object gets the library checks and the archive the wheel checks.
 */
final class AnyLayout {
  private AnyLayout() {}

  /** The library checks and the wheel checks, by ID. */
  static final Set<String> CHECKS = Set.of(
      "ELF-SHARED-OBJECT", "ELF-ONE-MACHINE", "PLATFORM", "DEPS-RESOLVE", "ELF-VERNEED-NEEDED",
      CudaVariantCheck.ID, SymbolFloorCheck.ID, "GPU-ARCHS", "EXEC-STACK", "ISA-LEVEL", "AARCH64-BTI-PAC",
      "WHEEL-RECORD", "WHEEL-PATHS", "WHEEL-TAGS", "WHEEL-BOMB", WheelZipCheck.ID, "WHEEL-SIZE");

  static boolean runs(Check check) {
    return CHECKS.contains(check.id());
  }
}
