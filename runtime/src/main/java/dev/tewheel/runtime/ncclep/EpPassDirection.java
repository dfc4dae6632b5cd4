package dev.tewheel.runtime.ncclep;

/**
 * NCCL EP's {@code ncclEpPassDir_t}: which side of the routing a high-throughput dispatch or combine takes part in
 * (low latency ignores it).
 */
public enum EpPassDirection {
  /** {@code NCCL_EP_FWD_PASS} (0, what a zeroed config means). */
  FWD,
  /** {@code NCCL_EP_BWD_PASS}: reuses the routing of the forward pass. */
  BWD
}
