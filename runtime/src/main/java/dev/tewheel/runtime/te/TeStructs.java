package dev.tewheel.runtime.te;

import static java.lang.foreign.MemoryLayout.paddingLayout;
import static java.lang.foreign.MemoryLayout.sequenceLayout;
import static java.lang.foreign.MemoryLayout.structLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.tewheel.runtime.internal.ffm.TeFunction;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;

/**
 * The structs and enums of TE's C API that its EP functions take ({@code transformer_engine/ep.h},
 * {@code comm_window.h}, {@code transformer_engine.h}), as layouts on LP64 Linux whose member names are the C names.
 */
public final class TeStructs {
  /** {@code NVTE_DELAYED_TENSOR_SCALING}: an unquantized tensor. */
  public static final int DELAYED_TENSOR_SCALING = 0;
  /** {@code kNVTERowwiseData}. */
  public static final int ROWWISE_DATA = 0;

  /** {@code NVTEEpGroupConfig}, 48 bytes; {@code struct_size} 0 means the base layout. */
  public static final StructLayout EP_GROUP_CONFIG = structLayout(
      JAVA_LONG.withName("struct_size"), JAVA_INT.withName("ep_size"), JAVA_INT.withName("num_experts"),
      JAVA_INT.withName("max_tokens_per_rank"), JAVA_INT.withName("max_recv_tokens_per_rank"),
      JAVA_INT.withName("hidden_dim"), JAVA_INT.withName("num_comm_sms"), JAVA_INT.withName("max_token_dtype"),
      JAVA_INT.withName("zero_copy"), JAVA_INT.withName("num_topk"), JAVA_INT.withName("drop_on_overflow"))
      .withName("NVTEEpGroupConfig");

  /** {@code NVTEEpLayerConfig}, 24 bytes. */
  public static final StructLayout EP_LAYER_CONFIG = structLayout(
      JAVA_LONG.withName("struct_size"), JAVA_INT.withName("top_k"), paddingLayout(4),
      JAVA_LONG.withName("dispatch_output_per_expert_alignment")).withName("NVTEEpLayerConfig");

  /** {@code NVTECommWindow}, 32 bytes, passed by value. */
  public static final StructLayout COMM_WINDOW = TeFunction.COMM_WINDOW_LAYOUT;

  /** {@code NVTEShape}: up to 15 dimensions. */
  public static final StructLayout SHAPE = structLayout(
      sequenceLayout(15, JAVA_LONG).withName("data"), JAVA_LONG.withName("ndim")).withName("NVTEShape");

  /** {@code NVTEBasicTensor}. */
  public static final StructLayout BASIC_TENSOR = structLayout(
      ADDRESS.withName("data_ptr"), JAVA_INT.withName("dtype"), paddingLayout(4), SHAPE.withName("shape"))
      .withName("NVTEBasicTensor");

  private TeStructs() {}

  /** A zeroed config with {@code struct_size} set, as {@code NVTE_EP_*_CONFIG_INIT} does. */
  public static MemorySegment allocate(Arena arena, StructLayout layout) {
    if (layout != EP_GROUP_CONFIG && layout != EP_LAYER_CONFIG) {
      throw new IllegalArgumentException(layout + " is not one of TE's EP configs");
    }
    MemorySegment config = arena.allocate(layout);
    config.set(JAVA_LONG, 0, layout.byteSize());
    return config;
  }
}
