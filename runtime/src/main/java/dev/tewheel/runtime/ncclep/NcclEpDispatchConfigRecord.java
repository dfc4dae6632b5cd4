package dev.tewheel.runtime.ncclep;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/** The values of an {@link NcclEpDispatchConfig}, and {@code segment}, the C struct written from them once. */
record NcclEpDispatchConfigRecord(boolean sendOnly, boolean roundScales, EpPassDirection passDirection,
    Quant quantRecipe, MemorySegment segment) implements NcclEpDispatchConfig {
  NcclEpDispatchConfigRecord {
    Objects.requireNonNull(passDirection, "passDirection");
    Objects.requireNonNull(quantRecipe, "quantRecipe");
  }
}
