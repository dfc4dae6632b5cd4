package dev.tewheel.runtime.internal.ffm;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * What the typed bindings share: the status check folded into a bound handle, and unwrapping what invokeExact
 * throws.
 */
public final class NativeCalls {
  private static final MethodHandle CHECK;

  static {
    try {
      CHECK = MethodHandles.lookup().findStatic(NativeCalls.class, "check",
          MethodType.methodType(void.class, Failure.class, String.class, int.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private NativeCalls() {}

  /** What a nonzero status of {@code function} becomes (NCCL's and NCCL EP's exceptions, with NCCL's text). */
  @FunctionalInterface
  public interface Failure {
    RuntimeException of(String function, int status);
  }

  /**
   * {@code downcall}, an {@code int}-returning C function, as a handle returning void that throws
   * {@code failure}'s exception on a nonzero status: the check lives in the bound handle, so a method is its
   * argument checks and one call, and the JIT inlines the check with the call.
   */
  public static MethodHandle checked(MethodHandle downcall, Failure failure, String function) {
    return MethodHandles.filterReturnValue(downcall, MethodHandles.insertArguments(CHECK, 0, failure, function));
  }

  private static void check(Failure failure, String function, int status) {
    if (status != 0) {
      throw failure.of(function, status);
    }
  }

  // The one way a call that returns nothing is made: the handle, its failure rethrown as thrown. NCCL EP's handles
  // are static finals (NcclEp.Bound), which the JIT folds once it inlines these.
  public static void call(MethodHandle function) {
    try {
      function.invokeExact();
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  public static void call(MethodHandle function, MemorySegment a) {
    try {
      function.invokeExact(a);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  public static void call(MethodHandle function, MemorySegment a, MemorySegment b) {
    try {
      function.invokeExact(a, b);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  public static void call(MethodHandle function, MemorySegment a, MemorySegment b, MemorySegment c) {
    try {
      function.invokeExact(a, b, c);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  public static void call(MethodHandle function, MemorySegment a, MemorySegment b, MemorySegment c, MemorySegment d) {
    try {
      function.invokeExact(a, b, c, d);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  public static void call(MethodHandle function, MemorySegment a, MemorySegment b, MemorySegment c, MemorySegment d,
      MemorySegment e) {
    try {
      function.invokeExact(a, b, c, d, e);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  public static void call(MethodHandle function, MemorySegment a, MemorySegment b, MemorySegment c, MemorySegment d,
      MemorySegment e, MemorySegment f) {
    try {
      function.invokeExact(a, b, c, d, e, f);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  public static RuntimeException rethrow(Throwable t) {
    return Libc.unexpected(t);
  }

  public static MemorySegment orNull(MemorySegment segment) {
    return segment == null ? MemorySegment.NULL : segment;
  }
}
