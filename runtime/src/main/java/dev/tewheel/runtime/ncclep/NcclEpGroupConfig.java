package dev.tewheel.runtime.ncclep;

import dev.tewheel.runtime.internal.ffm.Fields;
import dev.tewheel.runtime.internal.ffm.Problems;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * NCCL EP's {@code ncclEpGroupConfig_t}, checked in Java. Every field left unset keeps the value
 * {@code NCCL_EP_GROUP_CONFIG_INIT} gives it (0: {@code NCCL_EP_AUTO}, low latency, no mask, the default timeout);
 * {@link Builder#build()} refuses, with every problem at once, what NCCL EP would {@code assert()} on (ending the
 * process) or refuse, as {@code nccl_ep.h} documents it.
 *
 * <pre>{@code
 * NcclEpGroupConfig config = NcclEpGroupConfig.builder().algorithm(EpAlgorithm.HIGH_THROUGHPUT).numExperts(8)
 *     .maxDispatchTokensPerRank(128).maxTokenBytes(2048).build();
 * }</pre>
 *
 * @param algorithm {@code algorithm}: low latency (the zeroed default) or high throughput.
 * @param numExperts {@code num_experts}, greater than 0.
 * @param maxDispatchTokensPerRank {@code max_dispatch_tokens_per_rank}, greater than 0, the same on every rank.
 * @param maxRecvTokensPerRank {@code max_recv_tokens_per_rank}; 0 ({@code NCCL_EP_AUTO}): high throughput's eager
 *     mode; unused by low latency.
 * @param maxTokenBytes {@code max_token_bytes}, greater than 0 (a multiple of 16 for high throughput).
 * @param rdmaBufferSize {@code rdma_buffer_size}; 0 ({@code NCCL_EP_AUTO}): the library sizes low latency's staging
 *     buffer.
 * @param numQpPerRank {@code num_qp_per_rank}; 0: automatic.
 * @param numChannels {@code num_channels}; 0: automatic.
 * @param maxNumSms {@code max_num_sms}; 0: the algorithm's default.
 * @param enableMask {@code enable_mask} (low latency only): rank masking for fault tolerance.
 * @param timeoutNs {@code timeout_ns}; 0: NCCL EP's default (about 100 s).
 * @param zeroCopy {@code zero_copy}.
 * @param overflowPolicy {@code overflow_policy} (high throughput only).
 * @param numTopk {@code num_topk}; 0: unset.
 */
public record NcclEpGroupConfig(EpAlgorithm algorithm, int numExperts, int maxDispatchTokensPerRank,
    int maxRecvTokensPerRank, int maxTokenBytes, long rdmaBufferSize, int numQpPerRank, int numChannels,
    int maxNumSms, boolean enableMask, long timeoutNs, ZeroCopy zeroCopy, OverflowPolicy overflowPolicy,
    int numTopk) {
  /**
   * A config checked as {@link Builder#build()} checks it.
   *
   * @throws IllegalArgumentException naming every field NCCL EP would refuse or assert on
   */
  public NcclEpGroupConfig {
    Objects.requireNonNull(algorithm, "algorithm");
    Objects.requireNonNull(zeroCopy, "zeroCopy");
    Objects.requireNonNull(overflowPolicy, "overflowPolicy");
    Problems problems = new Problems("ncclEpGroupConfig_t").positive("num_experts", numExperts)
        .positive("max_dispatch_tokens_per_rank", maxDispatchTokensPerRank).positive("max_token_bytes", maxTokenBytes)
        .notNegative("max_recv_tokens_per_rank", maxRecvTokensPerRank).notNegative("rdma_buffer_size", rdmaBufferSize)
        .notNegative("num_qp_per_rank", numQpPerRank).notNegative("num_channels", numChannels)
        .notNegative("max_num_sms", maxNumSms).notNegative("timeout_ns", timeoutNs).notNegative("num_topk", numTopk);
    if (algorithm == EpAlgorithm.HIGH_THROUGHPUT) {
      problems.check(maxTokenBytes <= 0 || maxTokenBytes % 16 == 0, "max_token_bytes " + maxTokenBytes
          + " is not a multiple of 16, which high throughput needs");
      problems.check(maxRecvTokensPerRank <= 0 || maxRecvTokensPerRank >= maxDispatchTokensPerRank,
          "max_recv_tokens_per_rank " + maxRecvTokensPerRank + " is below max_dispatch_tokens_per_rank "
          + maxDispatchTokensPerRank + " (0 selects eager mode)");
      problems.check(maxRecvTokensPerRank != 0 || overflowPolicy != OverflowPolicy.DROP,
          "overflow_policy DROP is not supported in eager mode (max_recv_tokens_per_rank 0)");
    }
    problems.throwIfAny();
  }

  /** The C struct in {@code arena}: size, magic and version as the initializer sets them, then these fields. */
  public MemorySegment allocate(Arena arena) {
    return Fields.write(this, NcclEpStructs.allocate(arena, NcclEpStructs.GROUP_CONFIG), NcclEpStructs.GROUP_CONFIG);
  }

  /** {@code ncclEpZeroCopyMode_t}. */
  public enum ZeroCopy { AUTO, OFF, ON }

  /** {@code ncclEpOverflowPolicy_t}: what high throughput does with tokens past {@code max_recv_tokens_per_rank}. */
  public enum OverflowPolicy { AUTO, TRAP, DROP }

  /** A builder holding {@code NCCL_EP_GROUP_CONFIG_INIT}'s values. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds an {@link NcclEpGroupConfig}; each setter sets the record component of its name (documented there). */
  public static final class Builder {
    private EpAlgorithm algorithm = EpAlgorithm.LOW_LATENCY;
    private int numExperts;
    private int maxDispatchTokensPerRank;
    private int maxRecvTokensPerRank;
    private int maxTokenBytes;
    private long rdmaBufferSize;
    private int numQpPerRank;
    private int numChannels;
    private int maxNumSms;
    private boolean enableMask;
    private long timeoutNs;
    private ZeroCopy zeroCopy = ZeroCopy.AUTO;
    private OverflowPolicy overflowPolicy = OverflowPolicy.AUTO;
    private int numTopk;

    private Builder() {}

    public Builder algorithm(EpAlgorithm value) {
      algorithm = Objects.requireNonNull(value, "algorithm");
      return this;
    }

    public Builder numExperts(int value) {
      numExperts = value;
      return this;
    }

    public Builder maxDispatchTokensPerRank(int value) {
      maxDispatchTokensPerRank = value;
      return this;
    }

    public Builder maxRecvTokensPerRank(int value) {
      maxRecvTokensPerRank = value;
      return this;
    }

    public Builder maxTokenBytes(int value) {
      maxTokenBytes = value;
      return this;
    }

    public Builder rdmaBufferSize(long value) {
      rdmaBufferSize = value;
      return this;
    }

    public Builder numQpPerRank(int value) {
      numQpPerRank = value;
      return this;
    }

    public Builder numChannels(int value) {
      numChannels = value;
      return this;
    }

    public Builder maxNumSms(int value) {
      maxNumSms = value;
      return this;
    }

    public Builder enableMask(boolean value) {
      enableMask = value;
      return this;
    }

    public Builder timeoutNs(long value) {
      timeoutNs = value;
      return this;
    }

    public Builder zeroCopy(ZeroCopy value) {
      zeroCopy = Objects.requireNonNull(value, "zeroCopy");
      return this;
    }

    public Builder overflowPolicy(OverflowPolicy value) {
      overflowPolicy = Objects.requireNonNull(value, "overflowPolicy");
      return this;
    }

    public Builder numTopk(int value) {
      numTopk = value;
      return this;
    }

    /** @throws IllegalArgumentException naming every field NCCL EP would refuse or assert on */
    public NcclEpGroupConfig build() {
      return new NcclEpGroupConfig(algorithm, numExperts, maxDispatchTokensPerRank, maxRecvTokensPerRank,
          maxTokenBytes, rdmaBufferSize, numQpPerRank, numChannels, maxNumSms, enableMask, timeoutNs, zeroCopy,
          overflowPolicy, numTopk);
    }
  }
}
