package dev.tewheel.gpu;

/**
 * Calls through method handles, which declare Throwable: a RuntimeException they throw reaches the caller as it is,
 * anything else wrapped in an IllegalStateException.
 */
final class NativeCall {
  /** Calls that give nothing back (their failures are checked inside). */
  interface Calls {
    void run() throws Throwable;
  }

  /** A call whose result the caller uses. */
  interface ValueCall<T> {
    T run() throws Throwable;
  }

  private NativeCall() {}

  static void run(Calls calls) {
    value(() -> {
      calls.run();
      return null;
    });
  }

  static <T> T value(ValueCall<T> call) {
    try {
      return call.run();
    } catch (RuntimeException e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }
}
