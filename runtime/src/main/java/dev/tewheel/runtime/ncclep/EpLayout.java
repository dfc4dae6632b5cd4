package dev.tewheel.runtime.ncclep;

/** NCCL EP's {@code ncclEpLayout_t}: how a handle lays out the tokens a rank receives. */
public enum EpLayout {
  /** {@code NCCL_EP_LAYOUT_UNSET}. */
  UNSET,
  /** {@code NCCL_EP_LAYOUT_EXPERT_MAJOR}: one slab per local expert (TE's layout). */
  EXPERT_MAJOR,
  /** {@code NCCL_EP_LAYOUT_RANK_MAJOR}. */
  RANK_MAJOR,
  /** {@code NCCL_EP_LAYOUT_FLAT}. */
  FLAT;

  /** The C enum's value (the constant's ordinal: 0 to 3). */
  public int code() {
    return ordinal();
  }
}
