package dev.tewheel.runtime.te;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * TE's {@code NVTECommWindow}: an NCCL window and offset for a zero-copy payload (and its scale-inverse), or
 * {@link #NONE} to use the tensor's own data pointer. Passed by value to the {@code nvte_ep_*} functions.
 */
public record CommWindow(MemorySegment window, long offset, MemorySegment scaleWindow, long scaleOffset) {
  /** No window: the raw data pointer is used. */
  public static final CommWindow NONE = new CommWindow(MemorySegment.NULL, 0, MemorySegment.NULL, 0);

  public CommWindow {
    Objects.requireNonNull(window, "window");
    Objects.requireNonNull(scaleWindow, "scaleWindow");
  }

  boolean hasWindow() {
    return !window.equals(MemorySegment.NULL);
  }

  MemorySegment toStruct(Arena arena) {
    MemorySegment struct = arena.allocate(TeStructs.COMM_WINDOW);
    struct.set(java.lang.foreign.ValueLayout.ADDRESS, 0, window);
    struct.set(java.lang.foreign.ValueLayout.JAVA_LONG, 8, offset);
    struct.set(java.lang.foreign.ValueLayout.ADDRESS, 16, scaleWindow);
    struct.set(java.lang.foreign.ValueLayout.JAVA_LONG, 24, scaleOffset);
    return struct;
  }
}
