package dev.tewheel.runtime.te;

import dev.tewheel.runtime.internal.ffm.Fields;
import dev.tewheel.runtime.internal.ffm.Problems;
import dev.tewheel.runtime.nccl.NcclComm;
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
 *
 * @param epSize {@code ep_size}: the EP communicator's size.
 * @param numExperts {@code num_experts}, a multiple of {@code ep_size}.
 * @param maxTokensPerRank {@code max_tokens_per_rank}.
 * @param maxRecvTokensPerRank {@code max_recv_tokens_per_rank}; 0: eager mode.
 * @param hiddenDim {@code hidden_dim}.
 * @param numCommSms {@code num_comm_sms}; 0: automatic.
 * @param maxTokenDtype {@code max_token_dtype}: the widest token type the group dispatches.
 * @param zeroCopy {@code zero_copy}.
 * @param numTopk {@code num_topk}; 0: unset (required in eager mode).
 * @param dropOnOverflow {@code drop_on_overflow}.
 */
public record TeEpGroupConfig(int epSize, int numExperts, int maxTokensPerRank, int maxRecvTokensPerRank,
    int hiddenDim, int numCommSms, TeDataType maxTokenDtype, boolean zeroCopy, int numTopk, boolean dropOnOverflow) {
  /**
   * A config checked as {@link Builder#build()} checks it: TE's {@code validate_config}, written once, in its order
   * and words (a throw through a downcall ends the JVM); an unset {@code max_token_dtype} skips the row-size rules,
   * and an enum value is never out of range.
   *
   * @throws IllegalArgumentException naming every field TE would refuse
   */
  public TeEpGroupConfig {
    Problems problems = new Problems("NVTEEpGroupConfig").check(maxTokenDtype != null, "max_token_dtype is required"
        + " (TE has no default; a zeroed field would mean BYTE)")
        .check(epSize > 0, "ep_size must be positive, got " + epSize)
        .check(numExperts > 0, "num_experts must be positive, got " + numExperts)
        .check(maxTokensPerRank > 0, "max_tokens_per_rank must be positive, got " + maxTokensPerRank)
        .check(maxRecvTokensPerRank >= 0, "max_recv_tokens_per_rank must be non-negative, got " + maxRecvTokensPerRank)
        .check(!(zeroCopy && maxRecvTokensPerRank == 0), "zero-copy and eager (max_recv_tokens_per_rank = 0) modes"
            + " are mutually exclusive")
        .check(!(dropOnOverflow && maxRecvTokensPerRank == 0), "drop_on_overflow is not supported in eager mode"
            + " (max_recv_tokens_per_rank = 0)")
        .check(hiddenDim > 0, "hidden_dim must be positive, got " + hiddenDim);
    if (maxTokenDtype != null && hiddenDim > 0) {
      long rowBytes = (long) hiddenDim * maxTokenDtype.bytes();
      problems.check(rowBytes >= 16, "hidden_dim * sizeof(max_token_dtype) must be >= 16 (NCCL EP 16B row"
          + " alignment); got hidden_dim=" + hiddenDim + ", element_bytes=" + maxTokenDtype.bytes())
          .check(rowBytes <= 0xFFFF_FFFFL, "hidden_dim * sizeof(max_token_dtype) exceeds 4 GiB; got " + rowBytes);
    }
    if (epSize > 0) {
      problems.check(numExperts % epSize == 0, "num_experts (" + numExperts + ") must be divisible by ep_size ("
          + epSize + ")");
    }
    problems.check(numCommSms >= 0, "num_comm_sms must be >= 0 (0 = auto), got " + numCommSms).throwIfAny();
  }

  /** The C struct in {@code arena}, {@code struct_size} set to the current layout. */
  public MemorySegment allocate(Arena arena) {
    return Fields.write(this, TeStructs.allocate(arena, TeStructs.EP_GROUP_CONFIG), TeStructs.EP_GROUP_CONFIG);
  }

  /** A builder holding {@code NVTE_EP_GROUP_CONFIG_INIT}'s values. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link TeEpGroupConfig}; each setter sets the record component of its name (documented there). */
  public static final class Builder {
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

    public Builder epSize(int value) {
      epSize = value;
      return this;
    }

    public Builder numExperts(int value) {
      numExperts = value;
      return this;
    }

    public Builder maxTokensPerRank(int value) {
      maxTokensPerRank = value;
      return this;
    }

    public Builder maxRecvTokensPerRank(int value) {
      maxRecvTokensPerRank = value;
      return this;
    }

    public Builder hiddenDim(int value) {
      hiddenDim = value;
      return this;
    }

    public Builder numCommSms(int value) {
      numCommSms = value;
      return this;
    }

    public Builder maxTokenDtype(TeDataType value) {
      maxTokenDtype = Objects.requireNonNull(value, "maxTokenDtype");
      return this;
    }

    public Builder zeroCopy(boolean value) {
      zeroCopy = value;
      return this;
    }

    public Builder numTopk(int value) {
      numTopk = value;
      return this;
    }

    public Builder dropOnOverflow(boolean value) {
      dropOnOverflow = value;
      return this;
    }

    /** @throws IllegalArgumentException naming every field TE would refuse */
    public TeEpGroupConfig build() {
      return new TeEpGroupConfig(epSize, numExperts, maxTokensPerRank, maxRecvTokensPerRank, hiddenDim,
          numCommSms, maxTokenDtype, zeroCopy, numTopk, dropOnOverflow);
    }
  }
}
