package dev.tewheel.runtime.error;

/**
 * An NCCL function returned an {@code ncclResult_t} other than {@code ncclSuccess}; the message carries the
 * function, the result and NCCL's {@code ncclGetErrorString} text.
 */
public class NcclException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String function;
  private final int result;

  public NcclException(String function, int result, String text) {
    super(function + " failed with " + result + " (" + text + ")");
    this.function = function;
    this.result = result;
  }

  public String function() {
    return function;
  }

  /** The {@code ncclResult_t} value: 1 unhandled CUDA error, 2 system, 3 internal, 4 invalid argument, ... */
  public int result() {
    return result;
  }
}
