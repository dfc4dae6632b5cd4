package dev.tewheel.runtime;

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
  private final int bytes;

  NcclDataType(int code, int bytes) {
    this.code = code;
    this.bytes = bytes;
  }

  /** The C enum's value, e.g. 7 for {@code ncclFloat32}. */
  public int code() {
    return code;
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
    for (NcclDataType type : values()) {
      if (type.code == code) {
        return type;
      }
    }
    throw new IllegalArgumentException("ncclDataType_t has no value " + code + " (0 to 11: ncclInt8 to"
        + " ncclFloat8e5m2)");
  }
}
