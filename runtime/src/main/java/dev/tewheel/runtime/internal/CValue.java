package dev.tewheel.runtime.internal;

import java.lang.foreign.MemorySegment;

/** What {@link Fields} writes into a C struct member besides numbers: an enum's C int, or a struct's address. */
public interface CValue {
  /** An enum of a C API whose constants have C values of their own. */
  interface Code {
    int code();
  }

  /**
   * The constant of {@code values} whose C value is {@code code}.
   *
   * @throws IllegalArgumentException naming {@code cType} and its values, for a value it does not define
   */
  static <E extends Enum<E> & Code> E of(E[] values, int code, String cType) {
    for (E value : values) {
      if (value.code() == code) {
        return value;
      }
    }
    throw new IllegalArgumentException(cType + " has no value " + code + " (" + values[0].code() + " to "
        + values[values.length - 1].code() + ": " + values[0] + " to " + values[values.length - 1] + ")");
  }

  /** A value that lives in native memory, written as its address. */
  interface Address {
    MemorySegment segment();
  }
}
