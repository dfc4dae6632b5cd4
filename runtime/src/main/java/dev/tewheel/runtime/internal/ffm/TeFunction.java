package dev.tewheel.runtime.internal.ffm;

import static java.lang.foreign.MemoryLayout.structLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.StructLayout;

/** The TE functions te-runtime calls: the one table of C name and descriptor ({@code ep.h} and others). */
public enum TeFunction {
  CREATE_TENSOR("nvte_create_tensor", FunctionDescriptor.of(ADDRESS, JAVA_INT)),
  SET_TENSOR_PARAM("nvte_set_tensor_param", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, ADDRESS)),
  DESTROY_TENSOR("nvte_destroy_tensor", FunctionDescriptor.ofVoid(ADDRESS)),
  EP_INITIALIZE("nvte_ep_initialize", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS)),
  EP_SHUTDOWN("nvte_ep_shutdown", FunctionDescriptor.ofVoid()),
  EP_HANDLE_MEM_SIZE("nvte_ep_handle_mem_size", FunctionDescriptor.of(JAVA_LONG, ADDRESS)),
  EP_PREPARE("nvte_ep_prepare", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS)),
  EP_DISPATCH("nvte_ep_dispatch", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS, Layouts.COMM_WINDOW,
      ADDRESS, Layouts.COMM_WINDOW, ADDRESS, Layouts.COMM_WINDOW, ADDRESS, Layouts.COMM_WINDOW, ADDRESS)),
  EP_COMBINE("nvte_ep_combine", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, Layouts.COMM_WINDOW, ADDRESS,
      ADDRESS)),
  EP_DISPATCH_BWD("nvte_ep_dispatch_bwd", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, Layouts.COMM_WINDOW,
      ADDRESS, Layouts.COMM_WINDOW, ADDRESS, ADDRESS, ADDRESS)),
  EP_COMBINE_BWD("nvte_ep_combine_bwd", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, Layouts.COMM_WINDOW,
      ADDRESS, Layouts.COMM_WINDOW, ADDRESS));

  public final String symbol;
  public final FunctionDescriptor descriptor;

  TeFunction(String symbol, FunctionDescriptor descriptor) {
    this.symbol = symbol;
    this.descriptor = descriptor;
  }

  /** {@code NVTECommWindow}, 32 bytes, passed by value (te's {@code TeStructs.COMM_WINDOW}). */
  public static final StructLayout COMM_WINDOW_LAYOUT = Layouts.COMM_WINDOW;

  /** Made before the constants that use it (an enum's own statics come after them). */
  private static final class Layouts {
    static final StructLayout COMM_WINDOW = structLayout(ADDRESS.withName("window"), JAVA_LONG.withName("offset"),
        ADDRESS.withName("scale_window"), JAVA_LONG.withName("scale_offset")).withName("NVTECommWindow");
  }
}
