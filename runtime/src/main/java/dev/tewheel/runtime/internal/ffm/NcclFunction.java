package dev.tewheel.runtime.internal.ffm;

import static java.lang.foreign.MemoryLayout.sequenceLayout;
import static java.lang.foreign.MemoryLayout.structLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.StructLayout;

/** NCCL's functions as te-runtime calls them: the one table of C name and descriptor ({@code nccl.h}). */
public enum NcclFunction {
  GET_ERROR_STRING("ncclGetErrorString", FunctionDescriptor.of(ADDRESS, JAVA_INT)),
  GET_UNIQUE_ID("ncclGetUniqueId", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
  COMM_INIT_RANK("ncclCommInitRank", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, Layouts.UNIQUE_ID, JAVA_INT)),
  MEM_ALLOC("ncclMemAlloc", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG)),
  MEM_FREE("ncclMemFree", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
  COMM_COUNT("ncclCommCount", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
  COMM_USER_RANK("ncclCommUserRank", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
  COMM_CU_DEVICE("ncclCommCuDevice", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
  COMM_DESTROY("ncclCommDestroy", FunctionDescriptor.of(JAVA_INT, ADDRESS));

  /** {@code ncclUniqueId} (128 bytes), passed by value to {@code ncclCommInitRank}. */
  public static final StructLayout UNIQUE_ID = Layouts.UNIQUE_ID;

  public final String symbol;
  public final FunctionDescriptor descriptor;

  NcclFunction(String symbol, FunctionDescriptor descriptor) {
    this.symbol = symbol;
    this.descriptor = descriptor;
  }

  /** Made before the constants that use it (an enum's own statics come after them). */
  private static final class Layouts {
    static final StructLayout UNIQUE_ID =
        structLayout(sequenceLayout(128, JAVA_BYTE).withName("internal")).withName("ncclUniqueId");
  }
}
