package dev.tewheel.runtime;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** The values of a {@link TeEpGroupConfig}, checked by its builder; the components are the C fields. */
record TeEpGroupConfigRecord(int epSize, int numExperts, int maxTokensPerRank, int maxRecvTokensPerRank,
    int hiddenDim, int numCommSms, TeDataType maxTokenDtype, boolean zeroCopy, int numTopk, boolean dropOnOverflow)
    implements TeEpGroupConfig {

  @Override
  public MemorySegment allocate(Arena arena) {
    return Fields.write(this, TeStructs.allocate(arena, TeStructs.EP_GROUP_CONFIG), TeStructs.EP_GROUP_CONFIG);
  }

  /**
   * TE's {@code validate_config}, written once: what it would throw for these values (a throw through a downcall
   * ends the JVM), in its order and words, added to {@code problems}. {@code dtype} is the C value; -1 when it is
   * unset (reported by the builder), which skips the row-size rules.
   */
  static Problems problems(Problems problems, int epSize, int experts, int maxTokens, int maxRecv, int hidden,
      int sms, int dtype, boolean zeroCopy, boolean drop) {
    problems.check(epSize > 0, "ep_size must be positive, got " + epSize)
        .check(experts > 0, "num_experts must be positive, got " + experts)
        .check(maxTokens > 0, "max_tokens_per_rank must be positive, got " + maxTokens)
        .check(maxRecv >= 0, "max_recv_tokens_per_rank must be non-negative, got " + maxRecv)
        .check(!(zeroCopy && maxRecv == 0), "zero-copy and eager (max_recv_tokens_per_rank = 0) modes are mutually"
            + " exclusive")
        .check(!(drop && maxRecv == 0), "drop_on_overflow is not supported in eager mode"
            + " (max_recv_tokens_per_rank = 0)")
        .check(hidden > 0, "hidden_dim must be positive, got " + hidden);
    boolean known = dtype >= 0 && dtype < TeStructs.NUM_TYPES;
    problems.check(known || dtype == -1, "max_token_dtype out of range, got " + dtype);
    if (known && hidden > 0) {
      long rowBytes = (long) hidden * TeStructs.elementSize(dtype);
      problems.check(rowBytes >= 16, "hidden_dim * sizeof(max_token_dtype) must be >= 16 (NCCL EP 16B row"
          + " alignment); got hidden_dim=" + hidden + ", element_bytes=" + TeStructs.elementSize(dtype))
          .check(rowBytes <= 0xFFFF_FFFFL, "hidden_dim * sizeof(max_token_dtype) exceeds 4 GiB; got " + rowBytes);
    }
    if (epSize > 0) {
      problems.check(experts % epSize == 0, "num_experts (" + experts + ") must be divisible by ep_size (" + epSize
          + ")");
    }
    return problems.check(sms >= 0, "num_comm_sms must be >= 0 (0 = auto), got " + sms);
  }
}
