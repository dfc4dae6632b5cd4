package dev.tewheel.runtime.internal.ffm;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;

/**
 * A typed binding's functions (Nccl's, TransformerEngine's), each bound on first use and kept in a final array, so a
 * hot call is an array read and {@code invokeExact}. A function the library lacks throws when it is bound.
 */
public final class FunctionTable {
  private final Symbols symbols;
  private final NativeCalls.Failure failure;
  private final MethodHandle[] bound;

  /**
   * {@code failure}: what a nonzero {@code int} status becomes, checked inside the handle; null where the library
   * returns no status (TE throws C++ exceptions instead).
   */
  public FunctionTable(Symbols symbols, int size, NativeCalls.Failure failure) {
    this.symbols = symbols;
    this.failure = failure;
    this.bound = new MethodHandle[size];
  }

  /** The handle of function {@code index} (its enum's ordinal), bound on first use. */
  public MethodHandle get(int index, String symbol, FunctionDescriptor descriptor) {
    MethodHandle handle = bound[index];
    if (handle == null) { // a benign race: Symbols hands out one handle per key
      handle = symbols.function(symbol, descriptor);
      if (failure != null && JAVA_INT.equals(descriptor.returnLayout().orElse(null))) {
        handle = NativeCalls.checked(handle, failure, symbol);
      }
      bound[index] = handle;
    }
    return handle;
  }
}
