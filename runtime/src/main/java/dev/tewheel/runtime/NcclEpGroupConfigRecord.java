package dev.tewheel.runtime;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** The values of an {@link NcclEpGroupConfig}, checked by its builder; the components are the C fields. */
record NcclEpGroupConfigRecord(EpAlgorithm algorithm, int numExperts, int maxDispatchTokensPerRank,
    int maxRecvTokensPerRank, int maxTokenBytes, long rdmaBufferSize, int numQpPerRank, int numChannels,
    int maxNumSms, boolean enableMask, long timeoutNs, ZeroCopy zeroCopy, OverflowPolicy overflowPolicy,
    int numTopk) implements NcclEpGroupConfig {

  @Override
  public MemorySegment allocate(Arena arena) {
    return Fields.write(this, NcclEpStructs.allocate(arena, NcclEpStructs.GROUP_CONFIG), NcclEpStructs.GROUP_CONFIG);
  }
}
