package dev.tewheel.runtime.internal.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The version getters' downcall shape, {@code int f(int *)} ({@code ncclGetVersion}, {@code ncclEpGetVersion}): one of
 * the two shapes (with {@link Libc}'s) on the path from nothing loaded to the first NCCL EP call, and
 * {@code cuDriverGetVersion}'s too. The JDK generates
 * classes for each distinct shape the first time (milliseconds each, docs/performance.md), so every version getter
 * uses exactly this one.
 */
public final class VersionGetter {
  /** {@code ncclResult_t f(int *version)}: a trivial getter, so critical, and it may write to a heap array. */
  private static final FunctionDescriptor VERSION_GETTER = FunctionDescriptor.of(JAVA_INT, ADDRESS);

  private VersionGetter() {}

  /** A handle for a version getter at {@code address}, taking {@code MemorySegment.ofArray(new int[1])}. */
  @SuppressWarnings("restricted") // callers checked native access (NativeAccess.check)
  public static MethodHandle at(MemorySegment address) {
    return Linker.nativeLinker().downcallHandle(address, VERSION_GETTER, Linker.Option.critical(true));
  }

  /** Calls the getter at {@code address}: its status, the code it wrote in {@code version[0]}. */
  public static int call(MemorySegment address, int[] version) {
    try {
      return (int) at(address).invokeExact(MemorySegment.ofArray(version));
    } catch (Throwable t) {
      throw Libc.unexpected(t);
    }
  }
}
