package dev.tewheel.runtime.nccl;

import dev.tewheel.runtime.internal.CValue;
import dev.tewheel.runtime.ncclep.EpTensor;

/** NCCL's {@code ncclDataType_t} ({@code nccl.h}), the element type of an {@link EpTensor}. */
public enum NcclDataType implements CValue.Code {
  INT8(1),
  UINT8(1),
  INT32(4),
  UINT32(4),
  INT64(8),
  UINT64(8),
  FLOAT16(2),
  FLOAT32(4),
  FLOAT64(8),
  BFLOAT16(2),
  FLOAT8_E4M3(1),
  FLOAT8_E5M2(1);

  private final int bytes;

  NcclDataType(int bytes) {
    this.bytes = bytes;
  }

  /** The C enum's value (the constant's ordinal: 0 for {@code ncclInt8} to 11 for {@code ncclFloat8e5m2}). */
  @Override
  public int code() {
    return ordinal();
  }

  /** The size of one element in bytes. */
  public int bytes() {
    return bytes;
  }

  /**
   * The constant for a C value.
   *
   * @throws IllegalArgumentException for a value {@code ncclDataType_t} does not define
   */
  public static NcclDataType of(int code) {
    return CValue.of(values(), code, "ncclDataType_t");
  }
}
