package dev.tewheel.runtime.ncclep;

import static java.lang.foreign.MemoryLayout.paddingLayout;
import static java.lang.foreign.MemoryLayout.sequenceLayout;
import static java.lang.foreign.MemoryLayout.structLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.tewheel.runtime.internal.ffm.Fields;
import dev.tewheel.runtime.internal.ffm.Problems;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The structs, enums and constants of NCCL EP's {@code nccl_ep.h} (0.1.0, API version 2) on LP64 Linux, as
 * {@link StructLayout}s whose member names are the C field names. A test compiles a C probe against the header and
 * checks every size and offset here. Every config struct starts with {@code unsigned size; unsigned magic}, which
 * {@link #allocate} fills as the header's {@code *_INIT} macros do.
 */
public final class NcclEpStructs {
  /** {@code NCCL_EP_MAGIC}, the magic of every config struct. */
  public static final int MAGIC = 0xC00FFFEE;
  /** {@code NCCL_EP_TENSOR_MAGIC}. */
  public static final int TENSOR_MAGIC = 0xCAFECAFE;
  /** {@code NCCL_EP_API_VERSION}, the group config's {@code version}. */
  public static final int API_VERSION = 2;
  /** {@code ncclEpTensor_t}, 48 bytes. */
  public static final StructLayout TENSOR = sized("ncclEpTensor_t", JAVA_INT.withName("ndim"),
      JAVA_INT.withName("datatype"), ADDRESS.withName("data"), ADDRESS.withName("win_hdl"),
      JAVA_LONG.withName("win_offset"), ADDRESS.withName("sizes"));

  /** {@code ncclEpTensorAllocConfig_t}, 8 bytes. */
  public static final StructLayout TENSOR_ALLOC_CONFIG = sized("ncclEpTensorAllocConfig_t");

  /** {@code ncclEpAllocConfig_t}, inside the group config. */
  public static final StructLayout ALLOC_CONFIG = structLayout(ADDRESS.withName("alloc_fn"),
      ADDRESS.withName("free_fn"), ADDRESS.withName("context")).withName("ncclEpAllocConfig_t");

  /** {@code ncclEpGroupConfig_t}, 112 bytes (version 1 ended at 96). */
  public static final StructLayout GROUP_CONFIG = sized("ncclEpGroupConfig_t", JAVA_INT.withName("version"),
      JAVA_INT.withName("algorithm"), JAVA_INT.withName("num_experts"),
      JAVA_INT.withName("max_dispatch_tokens_per_rank"), JAVA_INT.withName("max_recv_tokens_per_rank"),
      JAVA_INT.withName("max_token_bytes"), JAVA_LONG.withName("rdma_buffer_size"),
      JAVA_INT.withName("num_qp_per_rank"), JAVA_INT.withName("num_channels"), JAVA_INT.withName("max_num_sms"),
      paddingLayout(4), ALLOC_CONFIG.withName("alloc"), JAVA_INT.withName("enable_mask"), paddingLayout(4),
      JAVA_LONG.withName("timeout_ns"), JAVA_INT.withName("zero_copy"), JAVA_INT.withName("overflow_policy"),
      JAVA_INT.withName("num_topk"), sequenceLayout(4, JAVA_BYTE).withName("padding_v2"));

  /** {@code ncclEpLayoutInfo_t}, 48 bytes. */
  public static final StructLayout LAYOUT_INFO = sized("ncclEpLayoutInfo_t", ADDRESS.withName("expert_counters"),
      ADDRESS.withName("src_rank_counters"), ADDRESS.withName("expert_offsets"), ADDRESS.withName("recv_total_counter"),
      JAVA_INT.withName("recv_topk_idx_kind"), sequenceLayout(4, JAVA_BYTE).withName("padding_v2"));

  /** {@code ncclEpDispatchInputs_t}, 32 bytes. */
  public static final StructLayout DISPATCH_INPUTS = sized("ncclEpDispatchInputs_t", ADDRESS.withName("tokens"),
      ADDRESS.withName("topk_weights"), ADDRESS.withName("scales"));

  /** {@code ncclEpDispatchOutputs_t}, 40 bytes. */
  public static final StructLayout DISPATCH_OUTPUTS = sized("ncclEpDispatchOutputs_t", ADDRESS.withName("tokens"),
      ADDRESS.withName("topk_weights"), ADDRESS.withName("scales"), ADDRESS.withName("topk_idx"));

  /** {@code ncclEpCombineInputs_t}, 32 bytes. */
  public static final StructLayout COMBINE_INPUTS = sized("ncclEpCombineInputs_t", ADDRESS.withName("tokens"),
      ADDRESS.withName("topk_weights"), ADDRESS.withName("scales"));

  /** {@code ncclEpCombineOutputs_t}, 24 bytes. */
  public static final StructLayout COMBINE_OUTPUTS = sized("ncclEpCombineOutputs_t", ADDRESS.withName("tokens"),
      ADDRESS.withName("topk_weights"));

  /** {@code ncclEpHandleConfig_t}, 16 bytes. */
  public static final StructLayout HANDLE_CONFIG = sized("ncclEpHandleConfig_t",
      JAVA_LONG.withName("dispatch_output_per_expert_alignment"));

  /** {@code ncclEpDispatchConfig_t}, 24 bytes. */
  public static final StructLayout DISPATCH_CONFIG = sized("ncclEpDispatchConfig_t", JAVA_INT.withName("send_only"),
      JAVA_INT.withName("round_scales"), JAVA_INT.withName("pass_direction"), JAVA_INT.withName("quant_recipe"));

  /** {@code ncclEpCombineConfig_t}, 20 bytes. */
  public static final StructLayout COMBINE_CONFIG = sized("ncclEpCombineConfig_t", JAVA_INT.withName("send_only"),
      JAVA_INT.withName("pass_direction"), JAVA_INT.withName("quant_recipe"));

  /** {@code ncclEpCompleteConfig_t}, 8 bytes. */
  public static final StructLayout COMPLETE_CONFIG = sized("ncclEpCompleteConfig_t");

  private NcclEpStructs() {}

  /**
   * A zeroed struct of {@code layout} in {@code arena}, with {@code size} and {@code magic} set as the header's
   * {@code *_INIT} macro sets them ({@link #TENSOR_MAGIC} for a tensor, {@link #MAGIC} otherwise) and, for the group
   * config, {@code version} = {@link #API_VERSION}.
   */
  public static MemorySegment allocate(Arena arena, StructLayout layout) {
    Objects.requireNonNull(layout, "layout");
    if (!layout.name().orElse("").startsWith("ncclEp") || layout == ALLOC_CONFIG) {
      throw new IllegalArgumentException(layout + " is not one of NCCL EP's sized structs");
    }
    MemorySegment struct = arena.allocate(layout);
    struct.set(JAVA_INT, 0, (int) layout.byteSize());
    struct.set(JAVA_INT, 4, layout == TENSOR ? TENSOR_MAGIC : MAGIC);
    if (layout == GROUP_CONFIG) {
      struct.set(JAVA_INT, 8, API_VERSION);
    }
    return struct;
  }

  /**
   * An {@code ncclEpTensor_t} over memory the caller owns (device memory from {@code ncclMemAlloc} on a GPU), as
   * TE's backend describes its tensors: {@code data} set, no window, {@code sizes} a copy in {@code arena}.
   */
  static MemorySegment tensor(Arena arena, int datatype, MemorySegment data, long... sizes) {
    MemorySegment tensor = allocate(arena, TENSOR);
    MemorySegment dims = arena.allocateFrom(JAVA_LONG, sizes);
    tensor.set(JAVA_INT, offset(TENSOR, "ndim"), sizes.length);
    tensor.set(JAVA_INT, offset(TENSOR, "datatype"), datatype);
    tensor.set(ADDRESS, offset(TENSOR, "data"), data);
    tensor.set(ADDRESS, offset(TENSOR, "sizes"), dims);
    return tensor;
  }

  /** The byte offset of member {@code field} of {@code layout}. */
  public static long offset(StructLayout layout, String field) {
    return layout.byteOffset(PathElement.groupElement(field));
  }

  /** The struct {@code name}: {@code unsigned size; unsigned magic}, as all sized ones start, then {@code members}. */
  private static StructLayout sized(String name, MemoryLayout... members) {
    List<MemoryLayout> all = new ArrayList<>(List.of(JAVA_INT.withName("size"), JAVA_INT.withName("magic")));
    all.addAll(List.of(members));
    return structLayout(all.toArray(MemoryLayout[]::new)).withName(name);
  }

  /**
   * The NCCL EP struct of {@code layout} ({@code *_INIT}'s size and magic) with the components of {@code values}
   * written into it: the struct a per-call config or tensor set passes on every call, written once per value (equal
   * values, equal structs) and kept while the value first written is reachable. It holds addresses only, never the value.
   *
   * @param tensors the tensors it points at, checked open first (null: an absent optional tensor)
   * @throws IllegalStateException when one of {@code tensors} was closed
   */
  static MemorySegment written(Record values, StructLayout layout, EpTensor... tensors) {
    for (EpTensor tensor : tensors) {
      if (tensor != null) {
        tensor.segment(); // throws once it is closed
      }
    }
    return Fields.written(values, layout, NcclEpStructs::allocate);
  }

  /** A tensor struct's one required member. */
  static void requireTokens(StructLayout layout, EpTensor tokens) {
    new Problems(layout.name().orElseThrow()).required("tokens", tokens).throwIfAny();
  }
}
