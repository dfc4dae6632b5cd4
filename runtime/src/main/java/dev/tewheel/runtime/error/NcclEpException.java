package dev.tewheel.runtime.error;

/**
 * An {@code ncclEp*} function returned an {@code ncclResult_t} other than {@code ncclSuccess}. NCCL EP has no error
 * string function of its own: the text is NCCL's {@code ncclGetErrorString}, as NCCL EP's callers use.
 */
public final class NcclEpException extends NcclException {
  private static final long serialVersionUID = 1L;

  public NcclEpException(String function, int result, String text) {
    super(function, result, text);
  }
}
