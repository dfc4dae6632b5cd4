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

  /**
   * Calls the getter at {@code address}, which {@code what} names: the code it wrote.
   *
   * @param least the least code that is a version: 0 for NCCL EP (whose 0.0.0 is one), 1 for NCCL and the CUDA
   *     driver (whose 0 is none)
   * @throws IllegalStateException on a nonzero status or a code below {@code least}
   */
  public static int read(MemorySegment address, int least, String what) {
    int[] version = new int[1];
    int status;
    try {
      status = (int) at(address).invokeExact(MemorySegment.ofArray(version));
    } catch (Throwable t) {
      throw Libc.unexpected(t);
    }
    if (status != 0) {
      throw new IllegalStateException(what + " failed with status " + status + "; expected 0 (success): the library is"
          + " damaged or not a release build of it; use one");
    }
    if (version[0] < least) {
      throw new IllegalStateException(what + " succeeded but wrote version code " + version[0] + "; expected "
          + least + " or more (a version): use a release build of the library, which reports its version");
    }
    return version[0];
  }
}
