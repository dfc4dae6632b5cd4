package dev.tewheel.runtime.te;

import dev.tewheel.runtime.internal.ffm.CValue;

/** TE's {@code NVTEDType} ({@code transformer_engine.h}), the element type of an {@link NvteTensor}. */
public enum TeDataType {
  BYTE(1),
  INT16(2),
  INT32(4),
  INT64(8),
  FLOAT32(4),
  FLOAT16(2),
  BFLOAT16(2),
  FLOAT8_E4M3(1),
  FLOAT8_E5M2(1),
  FLOAT8_E8M0(1),
  /** Two elements per byte: {@link #bytes()} is 0, as TE's {@code typeToSize} gives. */
  FLOAT4_E2M1(0);

  private final int bytes;

  TeDataType(int bytes) {
    this.bytes = bytes;
  }

  /** The C enum's value (the constant's ordinal: 0 for {@code kNVTEByte} to 10 for {@code kNVTEFloat4E2M1}). */
  public int code() {
    return ordinal();
  }

  /** The element size TE's {@code typeToSize} gives, in bytes; 0 for sub-byte FP4. */
  public int bytes() {
    return bytes;
  }

  /**
   * The constant for a C value.
   *
   * @throws IllegalArgumentException for a value {@code NVTEDType} does not define
   */
  public static TeDataType of(int code) {
    return CValue.of(values(), TeDataType::code, code, "NVTEDType");
  }
}
