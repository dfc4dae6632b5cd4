package dev.tewheel.runtime.ncclep;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * NCCL EP's {@code ncclEpLayoutInfo_t}: the caller's counter tensors a handle update or a dispatch fills, each
 * optional, and how received expert ids are numbered. {@link #NONE} passes NULL (what low latency's handle updates
 * require). Its struct is written once, when it is built.
 */
public sealed interface NcclEpLayoutInfo permits NcclEpLayoutInfoRecord {
  /** {@code ncclEpExpertIdKind_t}: how {@code recv_topk_idx} numbers experts. */
  enum ExpertIdKind {
    /** {@code NCCL_EP_EXPERT_ID_AUTO}: the library's default (today {@code LOCAL}). */
    AUTO,
    /** {@code NCCL_EP_EXPERT_ID_LOCAL}: the expert's id on this rank, -1 when not routed here. */
    LOCAL,
    /** {@code NCCL_EP_EXPERT_ID_GLOBAL}: the wire's global id, -1 when not routed here. */
    GLOBAL
  }

  /** No layout info: NULL. */
  NcclEpLayoutInfo NONE = new NcclEpLayoutInfoRecord(null, null, null, null, ExpertIdKind.AUTO, MemorySegment.NULL);

  /** A builder holding {@code NCCL_EP_LAYOUT_INFO_INIT}'s values (no tensors, {@code AUTO}). */
  static Builder builder() {
    return new Builder();
  }

  /**
   * {@code expert_counters}, optional (null): 1-D [num_local_experts] int32 (int64 for high throughput expert-major),
   * the tokens each local expert receives; low latency's expert-major dispatch requires it.
   */
  EpTensor expertCounters();

  /** {@code src_rank_counters}, optional (null): 1-D [num_ranks] int32, low latency rank-major's count per source. */
  EpTensor srcRankCounters();

  /** {@code expert_offsets}, optional (null): high throughput expert-major's prefix sum of the padded counts. */
  EpTensor expertOffsets();

  /** {@code recv_total_counter}, optional (null): 1-D [1], high throughput's total of received tokens (or slots). */
  EpTensor recvTotalCounter();

  /** {@code recv_topk_idx_kind}. */
  ExpertIdKind recvTopkIdxKind();

  /**
   * The {@code ncclEpLayoutInfo_t*} ({@link MemorySegment#NULL} for {@link #NONE}), for the raw methods.
   *
   * @throws IllegalStateException when a tensor it points at was closed
   */
  MemorySegment segment();

  /** Builds an {@link NcclEpLayoutInfo}; each setter names the C field it sets. */
  final class Builder {
    private EpTensor expertCounters;
    private EpTensor srcRankCounters;
    private EpTensor expertOffsets;
    private EpTensor recvTotalCounter;
    private ExpertIdKind recvTopkIdxKind = ExpertIdKind.AUTO;

    private Builder() {}

    /** {@code expert_counters}. */
    public Builder expertCounters(EpTensor value) {
      expertCounters = value;
      return this;
    }

    /** {@code src_rank_counters}. */
    public Builder srcRankCounters(EpTensor value) {
      srcRankCounters = value;
      return this;
    }

    /** {@code expert_offsets}. */
    public Builder expertOffsets(EpTensor value) {
      expertOffsets = value;
      return this;
    }

    /** {@code recv_total_counter}. */
    public Builder recvTotalCounter(EpTensor value) {
      recvTotalCounter = value;
      return this;
    }

    /** {@code recv_topk_idx_kind}. */
    public Builder recvTopkIdxKind(ExpertIdKind value) {
      recvTopkIdxKind = Objects.requireNonNull(value, "recvTopkIdxKind");
      return this;
    }

    public NcclEpLayoutInfo build() {
      return NcclEpStructs.written(NcclEpStructs.LAYOUT_INFO, s -> new NcclEpLayoutInfoRecord(expertCounters,
          srcRankCounters, expertOffsets, recvTotalCounter, recvTopkIdxKind, s));
    }
  }
}
