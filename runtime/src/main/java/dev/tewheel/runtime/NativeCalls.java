package dev.tewheel.runtime;

import dev.tewheel.runtime.internal.Libc;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;

/** What the typed bindings share: unwrapping what invokeExact throws, and checking struct arguments. */
final class NativeCalls {
  private NativeCalls() {}

  static RuntimeException rethrow(Throwable t) {
    return Libc.unexpected(t);
  }

  /**
   * Checks a struct argument before it crosses into native code, where NCCL EP asserts (aborting the process) or
   * TE throws (ending the JVM): NULL only when {@code optional}; otherwise large enough for {@code layout}.
   */
  static MemorySegment struct(String function, String parameter, MemorySegment struct, StructLayout layout,
      boolean optional) {
    if (struct == null || struct.equals(MemorySegment.NULL)) {
      if (optional) {
        return MemorySegment.NULL;
      }
      throw new IllegalArgumentException(function + ": " + parameter + " must not be NULL");
    }
    if (struct.byteSize() != 0 && struct.byteSize() < layout.byteSize()) {
      throw new IllegalArgumentException(function + ": " + parameter + " is " + struct.byteSize()
          + " bytes, smaller than " + layout.name().orElse("its struct") + " (" + layout.byteSize() + " bytes)");
    }
    return struct;
  }

  static MemorySegment orNull(MemorySegment segment) {
    return segment == null ? MemorySegment.NULL : segment;
  }
}
