package dev.tewheel.runtime.ncclep;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/** The values of an {@link NcclEpCombineConfig}, and {@code segment}, the C struct written from them once. */
record NcclEpCombineConfigRecord(boolean sendOnly, EpPassDirection passDirection, Quant quantRecipe,
    MemorySegment segment) implements NcclEpCombineConfig {
  NcclEpCombineConfigRecord {
    Objects.requireNonNull(passDirection, "passDirection");
    Objects.requireNonNull(quantRecipe, "quantRecipe");
  }
}
