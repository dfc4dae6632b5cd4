package dev.tewheel.runtime;

import java.lang.foreign.MemorySegment;

/** The values of an {@link NcclEpCombineConfig}, and {@code segment}, the C struct written from them once. */
record NcclEpCombineConfigRecord(boolean sendOnly, EpPassDirection passDirection, Quant quantRecipe,
    MemorySegment segment) implements NcclEpCombineConfig {}
