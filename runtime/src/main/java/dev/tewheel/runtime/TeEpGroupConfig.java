package dev.tewheel.runtime;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
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
public final class TeEpGroupConfig {
  private final int epSize;
  private final int numExperts;
  private final int maxTokensPerRank;
  private final int maxRecvTokensPerRank;
  private final int hiddenDim;
  private final int numCommSms;
  private final TeDataType maxTokenDtype;
  private final boolean zeroCopy;
  private final int numTopk;
  private final boolean dropOnOverflow;

  private TeEpGroupConfig(Builder b) {
    epSize = b.epSize;
    numExperts = b.numExperts;
    maxTokensPerRank = b.maxTokensPerRank;
    maxRecvTokensPerRank = b.maxRecvTokensPerRank;
    hiddenDim = b.hiddenDim;
    numCommSms = b.numCommSms;
    maxTokenDtype = b.maxTokenDtype;
    zeroCopy = b.zeroCopy;
    numTopk = b.numTopk;
    dropOnOverflow = b.dropOnOverflow;
  }

  /** A builder holding {@code NVTE_EP_GROUP_CONFIG_INIT}'s values. */
  public static Builder builder() {
    return new Builder();
  }

  public int epSize() {
    return epSize;
  }

  public int numExperts() {
    return numExperts;
  }

  public int maxTokensPerRank() {
    return maxTokensPerRank;
  }

  /** 0: eager mode. */
  public int maxRecvTokensPerRank() {
    return maxRecvTokensPerRank;
  }

  public int hiddenDim() {
    return hiddenDim;
  }

  /** 0: automatic. */
  public int numCommSms() {
    return numCommSms;
  }

  public TeDataType maxTokenDtype() {
    return maxTokenDtype;
  }

  public boolean zeroCopy() {
    return zeroCopy;
  }

  /** 0: unset. */
  public int numTopk() {
    return numTopk;
  }

  public boolean dropOnOverflow() {
    return dropOnOverflow;
  }

  /** The C struct in {@code arena}, {@code struct_size} set to the current layout. */
  public MemorySegment allocate(Arena arena) {
    MemorySegment s = TeStructs.allocate(arena, TeStructs.EP_GROUP_CONFIG);
    put(s, "ep_size", epSize);
    put(s, "num_experts", numExperts);
    put(s, "max_tokens_per_rank", maxTokensPerRank);
    put(s, "max_recv_tokens_per_rank", maxRecvTokensPerRank);
    put(s, "hidden_dim", hiddenDim);
    put(s, "num_comm_sms", numCommSms);
    put(s, "max_token_dtype", maxTokenDtype.code());
    put(s, "zero_copy", zeroCopy ? 1 : 0);
    put(s, "num_topk", numTopk);
    put(s, "drop_on_overflow", dropOnOverflow ? 1 : 0);
    return s;
  }

  private static void put(MemorySegment s, String field, int value) {
    s.set(JAVA_INT, NcclEpStructs.offset(TeStructs.EP_GROUP_CONFIG, field), value);
  }

  @Override
  public String toString() {
    return "TeEpGroupConfig[epSize=" + epSize + ", numExperts=" + numExperts + ", maxTokensPerRank="
        + maxTokensPerRank + ", maxRecvTokensPerRank=" + maxRecvTokensPerRank + ", hiddenDim=" + hiddenDim
        + ", numCommSms=" + numCommSms + ", maxTokenDtype=" + maxTokenDtype + ", zeroCopy=" + zeroCopy
        + ", numTopk=" + numTopk + ", dropOnOverflow=" + dropOnOverflow + "]";
  }

  /**
   * TE's {@code validate_config}, written once: what it would throw for these values (a throw through a downcall
   * ends the JVM), in its order and words; empty when it accepts them. {@code dtype} is the C value.
   */
  static List<String> problems(int epSize, int experts, int maxTokens, int maxRecv, int hidden, int sms, int dtype,
      boolean zeroCopy, boolean drop) {
    List<String> problems = new ArrayList<>();
    check(problems, epSize > 0, "ep_size must be positive, got " + epSize);
    check(problems, experts > 0, "num_experts must be positive, got " + experts);
    check(problems, maxTokens > 0, "max_tokens_per_rank must be positive, got " + maxTokens);
    check(problems, maxRecv >= 0, "max_recv_tokens_per_rank must be non-negative, got " + maxRecv);
    check(problems, !(zeroCopy && maxRecv == 0), "zero-copy and eager (max_recv_tokens_per_rank = 0) modes are"
        + " mutually exclusive");
    check(problems, !(drop && maxRecv == 0), "drop_on_overflow is not supported in eager mode"
        + " (max_recv_tokens_per_rank = 0)");
    check(problems, hidden > 0, "hidden_dim must be positive, got " + hidden);
    boolean known = dtype >= 0 && dtype < TeStructs.NUM_TYPES;
    check(problems, known, "max_token_dtype out of range, got " + dtype);
    if (known && hidden > 0) {
      long rowBytes = (long) hidden * TeStructs.elementSize(dtype);
      check(problems, rowBytes >= 16, "hidden_dim * sizeof(max_token_dtype) must be >= 16 (NCCL EP 16B row"
          + " alignment); got hidden_dim=" + hidden + ", element_bytes=" + TeStructs.elementSize(dtype));
      check(problems, rowBytes <= 0xFFFF_FFFFL, "hidden_dim * sizeof(max_token_dtype) exceeds 4 GiB; got "
          + rowBytes);
    }
    if (epSize > 0) {
      check(problems, experts % epSize == 0, "num_experts (" + experts + ") must be divisible by ep_size (" + epSize
          + ")");
    }
    check(problems, sms >= 0, "num_comm_sms must be >= 0 (0 = auto), got " + sms);
    return problems;
  }

  private static void check(List<String> problems, boolean condition, String message) {
    if (!condition) {
      problems.add(message);
    }
  }

  /** Builds a {@link TeEpGroupConfig}; each setter names the C field it sets. */
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
      List<String> problems = new ArrayList<>();
      if (maxTokenDtype == null) {
        problems.add("max_token_dtype is required (TE has no default; a zeroed field would mean BYTE)");
      }
      problems.addAll(problems(epSize, numExperts, maxTokensPerRank, maxRecvTokensPerRank, hiddenDim, numCommSms,
          maxTokenDtype == null ? 0 : maxTokenDtype.code(), zeroCopy, dropOnOverflow));
      if (maxTokenDtype == null) {
        problems.removeIf(p -> p.startsWith("hidden_dim * sizeof"));
      }
      if (!problems.isEmpty()) {
        throw new IllegalArgumentException("NVTEEpGroupConfig: " + String.join("; ", problems));
      }
      return new TeEpGroupConfig(this);
    }
  }
}
