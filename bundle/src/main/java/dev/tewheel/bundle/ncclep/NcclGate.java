package dev.tewheel.bundle.ncclep;

/**
 * The NCCL that NCCL EP needs: TE's EP backend loads NCCL EP only when {@code ncclGetVersion} reports at least
 * {@link #MINIMUM_CODE}, so on an older NCCL it is never loaded. SYMBOL-FLOOR holds NCCL EP's NCCL imports only to a
 * floor NCCL at or above it.
 */
public final class NcclGate {
  /** NCCL_VERSION_CODE of 2.30.4 (MAJOR*10000 + MINOR*100 + PATCH). */
  public static final int MINIMUM_CODE = 23004;

  /** {@link #MINIMUM_CODE} as NCCL names its releases. */
  public static final String MINIMUM = "2.30.4";

  private NcclGate() {}

  /** NCCL_VERSION_CODE of a release (NCCL >= 2.9 counts MINOR in hundreds). */
  public static int code(int major, int minor, int patch) {
    return major * 10000 + minor * 100 + patch;
  }
}
