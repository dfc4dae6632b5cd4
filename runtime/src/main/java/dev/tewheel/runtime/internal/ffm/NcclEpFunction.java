package dev.tewheel.runtime.internal.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;

/**
 * NCCL EP's functions as te-runtime calls them: the one table of C name and descriptor ({@code nccl_ep.h}). Each
 * is bound once, in {@code NcclEp}'s holder of bound handles.
 */
public enum NcclEpFunction {
  GET_VERSION("ncclEpGetVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
  TENSOR_ALLOC("ncclEpTensorAlloc", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS)),
  TENSOR_DESTROY("ncclEpTensorDestroy", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
  CREATE_GROUP("ncclEpCreateGroup", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
  GROUP_DESTROY("ncclEpGroupDestroy", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
  // Host-only sizing, short and without upcalls: a critical downcall, so its out-parameter can be a heap array.
  HANDLE_MEM_SIZE("ncclEpHandleMemSize", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS,
      JAVA_INT), Linker.Option.critical(true)),
  INIT_HANDLE("ncclEpInitHandle", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT,
      ADDRESS)),
  UPDATE_HANDLE("ncclEpUpdateHandle", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS)),
  CREATE_HANDLE("ncclEpCreateHandle", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS,
      ADDRESS, ADDRESS)),
  HANDLE_DESTROY("ncclEpHandleDestroy", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
  DISPATCH("ncclEpDispatch", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS)),
  COMBINE("ncclEpCombine", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS)),
  COMPLETE("ncclEpComplete", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
  MASK_QUERY("ncclEpMaskQuery", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
  MASK_UPDATE("ncclEpMaskUpdate", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
  MASK_CLEAN("ncclEpMaskClean", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
  GET_ASYNC_ERROR("ncclEpGetAsyncError", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
  ERROR_CLEAR("ncclEpErrorClear", FunctionDescriptor.of(JAVA_INT, ADDRESS));

  public final String symbol;
  public final FunctionDescriptor descriptor;
  /** How it is bound: {@code Linker.Option.critical(true)} where heap segments may be passed. */
  public final Linker.Option[] options;

  NcclEpFunction(String symbol, FunctionDescriptor descriptor, Linker.Option... options) {
    this.symbol = symbol;
    this.descriptor = descriptor;
    this.options = options;
  }
}
