package dev.tewheel.runtime;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * TE's {@code NVTEEpGroupConfig}, checked in Java by the rules TE's {@code validate_config} applies (except the
 * communicator's size and the GPU's SM, which {@link TransformerEngine#epInitialize(NcclComm, TeEpGroupConfig)}
 * checks). Unset fields keep {@code NVTE_EP_GROUP_CONFIG_INIT}'s zero, except {@code max_token_dtype}, which TE
 * requires and which has no default here either.
 *
 * <pre>{@code
 * TeEpGroupConfig config = TeEpGroupConfig.builder().epSize(8).numExperts(64).maxTokensPerRank(4096)
 *     .hiddenDim(7168).maxTokenDtype(TeDataType.BFLOAT16).numTopk(8).build();
 * }</pre>
 */
public sealed interface TeEpGroupConfig permits TeEpGroupConfigRecord {
  /** A builder holding {@code NVTE_EP_GROUP_CONFIG_INIT}'s values. */
  static Builder builder() {
    return new Builder();
  }

  /** {@code ep_size}: the EP communicator's size. */
  int epSize();

  /** {@code num_experts}, a multiple of {@code ep_size}. */
  int numExperts();

  /** {@code max_tokens_per_rank}. */
  int maxTokensPerRank();

  /** {@code max_recv_tokens_per_rank}; 0: eager mode. */
  int maxRecvTokensPerRank();

  /** {@code hidden_dim}. */
  int hiddenDim();

  /** {@code num_comm_sms}; 0: automatic. */
  int numCommSms();

  /** {@code max_token_dtype}: the widest token type the group dispatches. */
  TeDataType maxTokenDtype();

  /** {@code zero_copy}. */
  boolean zeroCopy();

  /** {@code num_topk}; 0: unset (required in eager mode). */
  int numTopk();

  /** {@code drop_on_overflow}. */
  boolean dropOnOverflow();

  /** The C struct in {@code arena}, {@code struct_size} set to the current layout. */
  MemorySegment allocate(Arena arena);

  /** Builds a {@link TeEpGroupConfig}; each setter names the C field it sets. */
  final class Builder {
    private int epSize;
    private int numExperts;
    private int maxTokensPerRank;
    private int maxRecvTokensPerRank;
    private int hiddenDim;
    private int numCommSms;
    private TeDataType maxTokenDtype;
    private boolean zeroCopy;
    private int numTopk;
    private boolean dropOnOverflow;

    private Builder() {}

    /** {@code ep_size}: the EP communicator's size. */
    public Builder epSize(int value) {
      epSize = value;
      return this;
    }

    /** {@code num_experts}, a multiple of {@code ep_size}. */
    public Builder numExperts(int value) {
      numExperts = value;
      return this;
    }

    /** {@code max_tokens_per_rank}. */
    public Builder maxTokensPerRank(int value) {
      maxTokensPerRank = value;
      return this;
    }

    /** {@code max_recv_tokens_per_rank}; 0 selects eager mode. */
    public Builder maxRecvTokensPerRank(int value) {
      maxRecvTokensPerRank = value;
      return this;
    }

    /** {@code hidden_dim}. */
    public Builder hiddenDim(int value) {
      hiddenDim = value;
      return this;
    }

    /** {@code num_comm_sms}; 0 is automatic. */
    public Builder numCommSms(int value) {
      numCommSms = value;
      return this;
    }

    /** {@code max_token_dtype}, required: the widest token type the group dispatches. */
    public Builder maxTokenDtype(TeDataType value) {
      maxTokenDtype = Objects.requireNonNull(value, "maxTokenDtype");
      return this;
    }

    /** {@code zero_copy}. */
    public Builder zeroCopy(boolean value) {
      zeroCopy = value;
      return this;
    }

    /** {@code num_topk}; required in eager mode. */
    public Builder numTopk(int value) {
      numTopk = value;
      return this;
    }

    /** {@code drop_on_overflow}. */
    public Builder dropOnOverflow(boolean value) {
      dropOnOverflow = value;
      return this;
    }

    /**
     * The config.
     *
     * @throws IllegalArgumentException naming every field TE would refuse
     */
    public TeEpGroupConfig build() {
      Problems problems = new Problems("NVTEEpGroupConfig").check(maxTokenDtype != null, "max_token_dtype is required"
          + " (TE has no default; a zeroed field would mean BYTE)");
      TeEpGroupConfigRecord.problems(problems, epSize, numExperts, maxTokensPerRank, maxRecvTokensPerRank, hiddenDim,
          numCommSms, maxTokenDtype == null ? -1 : maxTokenDtype.code(), zeroCopy, dropOnOverflow);
      problems.throwIfAny();
      return new TeEpGroupConfigRecord(epSize, numExperts, maxTokensPerRank, maxRecvTokensPerRank, hiddenDim,
          numCommSms, maxTokenDtype, zeroCopy, numTopk, dropOnOverflow);
    }
  }
}
