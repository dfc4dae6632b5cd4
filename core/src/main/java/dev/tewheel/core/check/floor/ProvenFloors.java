package dev.tewheel.core.check.floor;

import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.deps.NvidiaDistributions;
import java.util.List;
import java.util.TreeMap;

/**
 * The Requires-Dist minimums a subject's floors prove (pack's declareFloors): one {@code <distribution>>=<version>}
 * per floor wheel on which every shipped library binds (SYMBOL-FLOOR, the proof DEPS-DECLARED reads), for the
 * subject's CUDA variant (a floor wheel of a table distribution of another CUDA major is left out), by name.
 */
public final class ProvenFloors {
  private ProvenFloors() {}

  /**
   * @param extra the extra the lines go under ({@code ; extra == "<extra>"}), or null
   */
  public static List<String> requirements(Subject subject, String extra) {
    SymbolFloorCheck.Proof proof = SymbolFloorCheck.prove(subject);
    Integer variant = subject.settings().cudaMajor();
    TreeMap<String, String> byName = new TreeMap<>();
    for (java.nio.file.Path input : subject.settings().floorLibraries()) {
      FloorWheel.of(input).filter(f -> f.version() != null && proof.passed(f.input()))
          .filter(f -> variant == null || NvidiaDistributions.named(f.name()).map(d -> d.cudaMajor() == variant)
              .orElse(true))
          .ifPresent(f -> byName.putIfAbsent(f.name(), f.requirement() + (extra == null ? ""
              : "; extra == \"" + extra + "\"")));
    }
    return List.copyOf(byName.values());
  }
}
