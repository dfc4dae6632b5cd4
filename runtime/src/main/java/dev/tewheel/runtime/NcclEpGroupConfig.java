package dev.tewheel.runtime;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
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
 */
public final class NcclEpGroupConfig {
  /** {@code ncclEpZeroCopyMode_t}. */
  public enum ZeroCopy { AUTO, OFF, ON }

  /** {@code ncclEpOverflowPolicy_t}: what high throughput does with tokens past {@code max_recv_tokens_per_rank}. */
  public enum OverflowPolicy { AUTO, TRAP, DROP }

  private final EpAlgorithm algorithm;
  private final int numExperts;
  private final int maxDispatchTokensPerRank;
  private final int maxRecvTokensPerRank;
  private final int maxTokenBytes;
  private final long rdmaBufferSize;
  private final int numQpPerRank;
  private final int numChannels;
  private final int maxNumSms;
  private final boolean enableMask;
  private final long timeoutNs;
  private final ZeroCopy zeroCopy;
  private final OverflowPolicy overflowPolicy;
  private final int numTopk;

  private NcclEpGroupConfig(Builder b) {
    algorithm = b.algorithm;
    numExperts = b.numExperts;
    maxDispatchTokensPerRank = b.maxDispatchTokensPerRank;
    maxRecvTokensPerRank = b.maxRecvTokensPerRank;
    maxTokenBytes = b.maxTokenBytes;
    rdmaBufferSize = b.rdmaBufferSize;
    numQpPerRank = b.numQpPerRank;
    numChannels = b.numChannels;
    maxNumSms = b.maxNumSms;
    enableMask = b.enableMask;
    timeoutNs = b.timeoutNs;
    zeroCopy = b.zeroCopy;
    overflowPolicy = b.overflowPolicy;
    numTopk = b.numTopk;
  }

  /** A builder holding {@code NCCL_EP_GROUP_CONFIG_INIT}'s values. */
  public static Builder builder() {
    return new Builder();
  }

  public EpAlgorithm algorithm() {
    return algorithm;
  }

  public int numExperts() {
    return numExperts;
  }

  public int maxDispatchTokensPerRank() {
    return maxDispatchTokensPerRank;
  }

  /** 0 ({@code NCCL_EP_AUTO}): high throughput's eager mode; unused by low latency. */
  public int maxRecvTokensPerRank() {
    return maxRecvTokensPerRank;
  }

  public int maxTokenBytes() {
    return maxTokenBytes;
  }

  /** 0 ({@code NCCL_EP_AUTO}): the library sizes low latency's staging buffer. */
  public long rdmaBufferSize() {
    return rdmaBufferSize;
  }

  public int numQpPerRank() {
    return numQpPerRank;
  }

  public int numChannels() {
    return numChannels;
  }

  public int maxNumSms() {
    return maxNumSms;
  }

  public boolean enableMask() {
    return enableMask;
  }

  /** 0: NCCL EP's default (about 100 s). */
  public long timeoutNs() {
    return timeoutNs;
  }

  public ZeroCopy zeroCopy() {
    return zeroCopy;
  }

  public OverflowPolicy overflowPolicy() {
    return overflowPolicy;
  }

  /** 0: unset. */
  public int numTopk() {
    return numTopk;
  }

  /** The C struct in {@code arena}: size, magic and version as the initializer sets them, then these fields. */
  public MemorySegment allocate(Arena arena) {
    MemorySegment s = NcclEpStructs.allocate(arena, NcclEpStructs.GROUP_CONFIG);
    put(s, "algorithm", algorithm.code());
    put(s, "num_experts", numExperts);
    put(s, "max_dispatch_tokens_per_rank", maxDispatchTokensPerRank);
    put(s, "max_recv_tokens_per_rank", maxRecvTokensPerRank);
    put(s, "max_token_bytes", maxTokenBytes);
    s.set(JAVA_LONG, NcclEpStructs.offset(NcclEpStructs.GROUP_CONFIG, "rdma_buffer_size"), rdmaBufferSize);
    put(s, "num_qp_per_rank", numQpPerRank);
    put(s, "num_channels", numChannels);
    put(s, "max_num_sms", maxNumSms);
    put(s, "enable_mask", enableMask ? 1 : 0);
    s.set(JAVA_LONG, NcclEpStructs.offset(NcclEpStructs.GROUP_CONFIG, "timeout_ns"), timeoutNs);
    put(s, "zero_copy", zeroCopy.ordinal());
    put(s, "overflow_policy", overflowPolicy.ordinal());
    put(s, "num_topk", numTopk);
    return s;
  }

  private static void put(MemorySegment s, String field, int value) {
    s.set(JAVA_INT, NcclEpStructs.offset(NcclEpStructs.GROUP_CONFIG, field), value);
  }

  @Override
  public String toString() {
    return "NcclEpGroupConfig[algorithm=" + algorithm + ", numExperts=" + numExperts + ", maxDispatchTokensPerRank="
        + maxDispatchTokensPerRank + ", maxRecvTokensPerRank=" + maxRecvTokensPerRank + ", maxTokenBytes="
        + maxTokenBytes + ", numTopk=" + numTopk + "]";
  }

  /** Builds an {@link NcclEpGroupConfig}; each setter names the C field it sets. */
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

    /** {@code algorithm}. */
    public Builder algorithm(EpAlgorithm value) {
      algorithm = Objects.requireNonNull(value, "algorithm");
      return this;
    }

    /** {@code num_experts}, required (greater than 0). */
    public Builder numExperts(int value) {
      numExperts = value;
      return this;
    }

    /** {@code max_dispatch_tokens_per_rank}, required (greater than 0), the same on every rank. */
    public Builder maxDispatchTokensPerRank(int value) {
      maxDispatchTokensPerRank = value;
      return this;
    }

    /** {@code max_recv_tokens_per_rank}. */
    public Builder maxRecvTokensPerRank(int value) {
      maxRecvTokensPerRank = value;
      return this;
    }

    /** {@code max_token_bytes}, required (greater than 0; a multiple of 16 for high throughput). */
    public Builder maxTokenBytes(int value) {
      maxTokenBytes = value;
      return this;
    }

    /** {@code rdma_buffer_size}. */
    public Builder rdmaBufferSize(long value) {
      rdmaBufferSize = value;
      return this;
    }

    /** {@code num_qp_per_rank}. */
    public Builder numQpPerRank(int value) {
      numQpPerRank = value;
      return this;
    }

    /** {@code num_channels}. */
    public Builder numChannels(int value) {
      numChannels = value;
      return this;
    }

    /** {@code max_num_sms}. */
    public Builder maxNumSms(int value) {
      maxNumSms = value;
      return this;
    }

    /** {@code enable_mask} (low latency only). */
    public Builder enableMask(boolean value) {
      enableMask = value;
      return this;
    }

    /** {@code timeout_ns}. */
    public Builder timeoutNs(long value) {
      timeoutNs = value;
      return this;
    }

    /** {@code zero_copy}. */
    public Builder zeroCopy(ZeroCopy value) {
      zeroCopy = Objects.requireNonNull(value, "zeroCopy");
      return this;
    }

    /** {@code overflow_policy} (high throughput only). */
    public Builder overflowPolicy(OverflowPolicy value) {
      overflowPolicy = Objects.requireNonNull(value, "overflowPolicy");
      return this;
    }

    /** {@code num_topk}. */
    public Builder numTopk(int value) {
      numTopk = value;
      return this;
    }

    /**
     * The config.
     *
     * @throws IllegalArgumentException naming every field NCCL EP would refuse or assert on
     */
    public NcclEpGroupConfig build() {
      List<String> problems = new ArrayList<>();
      positive(problems, "num_experts", numExperts);
      positive(problems, "max_dispatch_tokens_per_rank", maxDispatchTokensPerRank);
      positive(problems, "max_token_bytes", maxTokenBytes);
      notNegative(problems, "max_recv_tokens_per_rank", maxRecvTokensPerRank);
      notNegative(problems, "rdma_buffer_size", rdmaBufferSize);
      notNegative(problems, "num_qp_per_rank", numQpPerRank);
      notNegative(problems, "num_channels", numChannels);
      notNegative(problems, "max_num_sms", maxNumSms);
      notNegative(problems, "timeout_ns", timeoutNs);
      notNegative(problems, "num_topk", numTopk);
      if (algorithm == EpAlgorithm.HIGH_THROUGHPUT) {
        if (maxTokenBytes > 0 && maxTokenBytes % 16 != 0) {
          problems.add("max_token_bytes " + maxTokenBytes + " is not a multiple of 16, which high throughput needs");
        }
        if (maxRecvTokensPerRank > 0 && maxRecvTokensPerRank < maxDispatchTokensPerRank) {
          problems.add("max_recv_tokens_per_rank " + maxRecvTokensPerRank + " is below max_dispatch_tokens_per_rank "
              + maxDispatchTokensPerRank + " (0 selects eager mode)");
        }
        if (maxRecvTokensPerRank == 0 && overflowPolicy == OverflowPolicy.DROP) {
          problems.add("overflow_policy DROP is not supported in eager mode (max_recv_tokens_per_rank 0)");
        }
      }
      if (!problems.isEmpty()) {
        throw new IllegalArgumentException("ncclEpGroupConfig_t: " + String.join("; ", problems));
      }
      return new NcclEpGroupConfig(this);
    }
  }

  static void positive(List<String> problems, String field, long value) {
    if (value <= 0) {
      problems.add(field + " must be greater than 0, got " + value);
    }
  }

  static void notNegative(List<String> problems, String field, long value) {
    if (value < 0) {
      problems.add(field + " must not be negative, got " + value);
    }
  }
}
