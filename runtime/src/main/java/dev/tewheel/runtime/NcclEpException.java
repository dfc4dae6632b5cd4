package dev.tewheel.runtime;

/**
 * An {@code ncclEp*} function returned a status other than {@code ncclEpSuccess}; the message carries the function,
 * the status and {@code ncclEpGetErrorString}'s text.
 */
public final class NcclEpException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String function;
  private final int status;

  public NcclEpException(String function, int status, String text) {
    super(function + " failed with status " + status + ": " + text);
    this.function = function;
    this.status = status;
  }

  public String function() {
    return function;
  }

  /** The ncclEpResult_t value. */
  public int status() {
    return status;
  }
}
