package dev.tewheel.runtime.ncclep;

/** NCCL EP's {@code ncclEpAlgorithm_t}. */
public enum EpAlgorithm {
  /** {@code NCCL_EP_ALGO_LOW_LATENCY} (0, what a zeroed config means). */
  LOW_LATENCY,
  /** {@code NCCL_EP_ALGO_HIGH_THROUGHPUT}. */
  HIGH_THROUGHPUT;

  /** The C enum's value (the constant's ordinal). */
  public int code() {
    return ordinal();
  }
}
