package dev.tewheel.runtime.nccl;

import dev.tewheel.runtime.internal.ffm.CValue;
import dev.tewheel.runtime.ncclep.EpTensor;

/** NCCL's {@code ncclDataType_t} ({@code nccl.h}), the element type of an {@link EpTensor}. */
public enum NcclDataType {
  INT8(0, 1),
  UINT8(1, 1),
  INT32(2, 4),
  UINT32(3, 4),
  INT64(4, 8),
  UINT64(5, 8),
  FLOAT16(6, 2),
  FLOAT32(7, 4),
  FLOAT64(8, 8),
  BFLOAT16(9, 2),
  FLOAT8_E4M3(10, 1),
  FLOAT8_E5M2(11, 1);

  private final int code;
  private final int size;

  /** {@code code}: the C value {@code nccl.h} gives it; {@code size}: an element's bytes. */
  NcclDataType(int code, int size) {
    this.code = code;
    this.size = size;
  }

  /** The C enum's value: 0 for {@code ncclInt8} to 11 for {@code ncclFloat8e5m2}. */
  public int code() {
    return code;
  }

  /** The size of one element in bytes. */
  public int bytes() {
    return size;
  }

  /**
   * The constant for a C value.
   *
   * @throws IllegalArgumentException for a value {@code ncclDataType_t} does not define
   */
  public static NcclDataType of(int code) {
    return CValue.of(values(), NcclDataType::code, code, "ncclDataType_t");
  }
}
