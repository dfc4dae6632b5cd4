package dev.tewheel.bundle.ncclep;

import java.util.List;

/**
 * The functions of NCCL EP's C API ({@code nccl_ep.h} of NVIDIA/nccl-extensions, 0.1.0), and the ones a usable
 * library must define. Build-time checks (EP-EXPORTS), the runtime's availability and its loader all take
 * {@link #REQUIRED} from here, so none of them accepts a library TE's own loader would refuse.
 */
public final class NcclEpFunctions {
  /**
   * {@code ncclEpGetVersion}, which the loaders call to check the major, and the eight functions TE's provider
   * resolves with dlsym because its EP backend calls them. A library lacking any of them is unusable.
   */
  public static final List<String> REQUIRED = List.of("ncclEpGetVersion", "ncclEpCreateGroup",
      "ncclEpGroupDestroy", "ncclEpHandleMemSize", "ncclEpInitHandle", "ncclEpUpdateHandle", "ncclEpDispatch",
      "ncclEpCombine", "ncclEpHandleDestroy");

  /** Every function of the API, in the header's order. */
  public static final List<String> ALL = List.of("ncclEpGetVersion", "ncclEpTensorAlloc", "ncclEpTensorDestroy",
      "ncclEpCreateGroup", "ncclEpGroupDestroy", "ncclEpHandleMemSize", "ncclEpInitHandle", "ncclEpUpdateHandle",
      "ncclEpCreateHandle", "ncclEpHandleDestroy", "ncclEpDispatch", "ncclEpCombine", "ncclEpComplete",
      "ncclEpMaskQuery", "ncclEpMaskUpdate", "ncclEpMaskClean", "ncclEpGetAsyncError", "ncclEpErrorClear");

  private NcclEpFunctions() {}
}
