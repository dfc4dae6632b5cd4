package dev.tewheel.core.check;

import dev.tewheel.core.policy.ManylinuxPolicies;
import dev.tewheel.core.policy.ManylinuxPolicy;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

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

  /** Every library some manylinux policy lets a wheel need from the system. */
  static final List<String> POLICY_LIBRARIES = policyLibraries();

  static boolean runs(Check check) {
    return CHECKS.contains(check.id());
  }

  private static List<String> policyLibraries() {
    Set<String> all = new TreeSet<>();
    for (ManylinuxPolicy policy : ManylinuxPolicies.get().all()) {
      all.addAll(policy.allowed());
    }
    return List.copyOf(all);
  }
}
