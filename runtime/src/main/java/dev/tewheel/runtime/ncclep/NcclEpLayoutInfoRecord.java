package dev.tewheel.runtime.ncclep;

import java.lang.foreign.MemorySegment;

/** The values of an {@link NcclEpLayoutInfo}, and {@code struct}, the C struct written from them once. */
record NcclEpLayoutInfoRecord(EpTensor expertCounters, EpTensor srcRankCounters, EpTensor expertOffsets,
    EpTensor recvTotalCounter, ExpertIdKind recvTopkIdxKind, MemorySegment struct) implements NcclEpLayoutInfo {

  @Override
  public MemorySegment segment() {
    EpTensor.checkOpen(expertCounters);
    EpTensor.checkOpen(srcRankCounters);
    EpTensor.checkOpen(expertOffsets);
    EpTensor.checkOpen(recvTotalCounter);
    return struct;
  }
}
