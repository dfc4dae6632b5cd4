package dev.tewheel.runtime.ncclep;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * NCCL EP's {@code ncclEpLayoutInfo_t}: the caller's counter tensors a handle update or a dispatch fills, each
 * optional (null), and how received expert ids are numbered. {@link #NONE} passes NULL (what low latency's handle
 * updates require). Its struct is written once per value.
 *
 * @param expertCounters {@code expert_counters}, optional (null): 1-D [num_local_experts] int32 (int64 for high
 *     throughput expert-major), the tokens each local expert receives; low latency's expert-major dispatch requires it
 * @param srcRankCounters {@code src_rank_counters}, optional (null): 1-D [num_ranks] int32, low latency rank-major's
 *     count per source
 * @param expertOffsets {@code expert_offsets}, optional (null): high throughput expert-major's prefix sum of the
 *     padded counts
 * @param recvTotalCounter {@code recv_total_counter}, optional (null): 1-D [1], high throughput's total of received
 *     tokens (or slots)
 * @param recvTopkIdxKind {@code recv_topk_idx_kind}
 */
public record NcclEpLayoutInfo(EpTensor expertCounters, EpTensor srcRankCounters, EpTensor expertOffsets,
    EpTensor recvTotalCounter, ExpertIdKind recvTopkIdxKind) {
  /** {@code ncclEpExpertIdKind_t}: how {@code recv_topk_idx} numbers experts. */
  public enum ExpertIdKind {
    /** {@code NCCL_EP_EXPERT_ID_AUTO}: the library's default (today {@code LOCAL}). */
    AUTO,
    /** {@code NCCL_EP_EXPERT_ID_LOCAL}: the expert's id on this rank, -1 when not routed here. */
    LOCAL,
    /** {@code NCCL_EP_EXPERT_ID_GLOBAL}: the wire's global id, -1 when not routed here. */
    GLOBAL
  }

  /** No layout info: NULL. */
  public static final NcclEpLayoutInfo NONE = new NcclEpLayoutInfo(null, null, null, null, ExpertIdKind.AUTO);

  public NcclEpLayoutInfo {
    Objects.requireNonNull(recvTopkIdxKind, "recvTopkIdxKind");
  }

  /**
   * The {@code ncclEpLayoutInfo_t*} ({@link MemorySegment#NULL} for {@link #NONE}), for a call through {@link NcclEp#function}.
   *
   * @throws IllegalStateException when a tensor it points at was closed
   */
  public MemorySegment segment() {
    return this == NONE ? MemorySegment.NULL : NcclEpStructs.written(this, NcclEpStructs.LAYOUT_INFO,
        expertCounters, srcRankCounters, expertOffsets, recvTotalCounter);
  }
}
