package dev.tewheel.runtime.te;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.tewheel.runtime.error.UnresolvedSymbolException;
import dev.tewheel.runtime.internal.load.LoadedLibrary;
import dev.tewheel.runtime.internal.ffm.FunctionTable;
import dev.tewheel.runtime.internal.ffm.NativeCalls;
import dev.tewheel.runtime.internal.ffm.TeFunction;
import dev.tewheel.runtime.nccl.Nccl;
import dev.tewheel.runtime.nccl.NcclComm;
import dev.tewheel.runtime.ncclep.NcclEpStructs;
import dev.tewheel.runtime.report.Availability;
import dev.tewheel.runtime.report.EnvironmentSetting;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code libtransformer_engine.so}, loaded once per process by
 * {@link dev.tewheel.runtime.TeRuntime#loadTransformerEngine()} (RTLD_LAZY | RTLD_GLOBAL, as TE's Python loads it;
 * BIND_NOW comes from the library's own flag), with typed methods for TE's EP C API ({@code transformer_engine/ep.h}).
 *
 * <p>TE reports errors by throwing C++ exceptions. One thrown through a foreign-function downcall ends the JVM, so
 * every method here first establishes the preconditions TE checks (NCCL EP available by te-runtime's rule, the
 * NCCL gate on the NCCL actually mapped, initialized or not, shapes, dtypes; the configs are typed and checked by
 * TE's rules when built) and throws a Java exception instead of making a call that would throw. What Java cannot
 * see (e.g. the GPU's architecture, SM 90+) stays TE's to check.
 */
public final class TransformerEngine {
  private final LoadedLibrary library;
  private final Nccl nccl;
  private final Supplier<Availability> availability;

  private final FunctionTable functions;

  /**
   * TE's EP backend as te-runtime tracks it, to check TE's preconditions in Java. TE's backend is one per process
   * ({@code nvte_ep_initialize}), and so is this object (te-runtime loads TE once); guarded by {@link #epState}.
   */
  private final Object epState = new Object();
  private boolean epInitialized;
  /** The group's {@code max_token_dtype}. */
  private TeDataType maxTokenDtype = TeDataType.BYTE;
  /** The top_k and alignment of the first prepared layer, which TE caches for the process. */
  private Integer cachedTopK;
  private long cachedAlignment;
  /** The addresses of the handle memories {@code nvte_ep_prepare} has seeded. */
  private final Set<Long> prepared = new HashSet<>();

  /**
   * te-runtime's own: {@link dev.tewheel.runtime.TeRuntime#loadTransformerEngine()} makes the process's one after
   * every check of its load (its {@link LoadedLibrary} is of te-runtime's internal package, which no application can
   * name).
   */
  public TransformerEngine(LoadedLibrary library, Nccl nccl, Supplier<Availability> availability) {
    this.library = library;
    this.nccl = nccl;
    this.availability = availability;
    this.functions = new FunctionTable(library.symbols(), TeFunction.values().length, null);
  }

  /** The file te-runtime opened. */
  public Path file() {
    return library.symbols().file();
  }

  /** The file the dynamic linker mapped, by dlinfo. */
  public Path mappedFrom() {
    return library.mappedFrom();
  }

  /**
   * What became of {@code NCCL_EP_HOME}: set by te-runtime to the bundle's folder holding
   * {@code include/nccl_ep/}, or already set by the user (whose value wins); empty when the bundle ships no NCCL EP.
   */
  public Optional<EnvironmentSetting> ncclEpHome() {
    return library.ncclEpHome();
  }

  /** The NCCL that TE (which NEEDS libnccl.so.2) is bound to. */
  public Nccl nccl() {
    return nccl;
  }

  /**
   * A downcall handle for any function of the library. Calling a TE function that throws through it ends the JVM;
   * prefer the typed methods.
   *
   * @throws UnresolvedSymbolException {@code Unresolved symbol: <name>} when the library does not define it
   */
  public MethodHandle function(String name, FunctionDescriptor descriptor, Linker.Option... options) {
    return library.symbols().function(name, descriptor, options);
  }

  /**
   * {@code nvte_create_tensor} + {@code nvte_set_tensor_param(kNVTERowwiseData)}: an unquantized tensor over
   * {@code data} (device memory on a GPU; not freed by the tensor).
   */
  public NvteTensor createTensor(MemorySegment data, TeDataType dtype, long... shape) {
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(dtype, "dtype");
    if (shape.length == 0 || shape.length > 15) {
      throw new IllegalArgumentException("an NVTETensor has 1 to 15 dimensions, not " + shape.length);
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment handle =
          (MemorySegment) bound(TeFunction.CREATE_TENSOR).invokeExact(TeStructs.DELAYED_TENSOR_SCALING);
      MemorySegment holder = arena.allocate(ADDRESS);
      holder.set(ADDRESS, 0, handle);
      MemorySegment basic = arena.allocate(TeStructs.BASIC_TENSOR);
      basic.set(ADDRESS, 0, data);
      basic.set(JAVA_INT, 8, dtype.code());
      long shapeAt = NcclEpStructs.offset(TeStructs.BASIC_TENSOR, "shape");
      for (int i = 0; i < shape.length; i++) {
        basic.set(JAVA_LONG, shapeAt + 8L * i, shape[i]);
      }
      basic.set(JAVA_LONG, shapeAt + NcclEpStructs.offset(TeStructs.SHAPE, "ndim"), shape.length);
      bound(TeFunction.SET_TENSOR_PARAM).invokeExact(holder, TeStructs.ROWWISE_DATA, basic);
      return new NvteTensor(this, holder.get(ADDRESS, 0), data, dtype, shape);
    } catch (Throwable t) {
      throw NativeCalls.rethrow(t);
    }
  }

  void destroyTensor(MemorySegment handle) {
    NativeCalls.call(bound(TeFunction.DESTROY_TENSOR), handle);
  }

  /**
   * {@code nvte_ep_initialize}: bootstraps TE's EP backend on an EP communicator; TE's provider then sets
   * {@code NCCL_EP_HOME} (unless set) and dlopens NCCL EP. The config was checked by TE's rules when it was built; its
   * struct lives for the call only (TE copies it).
   *
   * @throws IllegalStateException before any native call, when NCCL EP is not available (by the same rule TE's
   *     provider loads with, including NCCL >= 2.30.4 for the NCCL mapped in this process), or EP is initialized
   * @throws IllegalArgumentException before any native call, when {@code comm}'s size is not the config's ep_size
   */
  public void epInitialize(NcclComm comm, TeEpGroupConfig groupConfig) {
    Objects.requireNonNull(comm, "comm");
    Objects.requireNonNull(groupConfig, "groupConfig");
    String fn = TeFunction.EP_INITIALIZE.symbol;
    synchronized (epState) {
      if (epInitialized) {
        throw new IllegalStateException(fn + " refused: EP is already initialized in this process;"
            + " call epShutdown() first");
      }
      Availability report = availability.get();
      if (!report.available()) {
        throw new IllegalStateException(fn + " refused before any native call: NCCL EP is not"
            + " available: " + report.reason());
      }
      int count = comm.count();
      require(count == groupConfig.epSize(), fn, "ep_comm size (" + count + ") must equal ep_size ("
          + groupConfig.epSize() + "). Pass the EP sub-communicator, not the world comm");
      try (Arena arena = Arena.ofConfined()) {
        NativeCalls.call(bound(TeFunction.EP_INITIALIZE), comm.segment(), groupConfig.allocate(arena));
      }
      epInitialized = true;
      maxTokenDtype = groupConfig.maxTokenDtype();
      cachedTopK = null;
      prepared.clear();
    }
  }

  /** {@code nvte_ep_shutdown}: destroys TE's NCCL EP handles and group; idempotent. The communicator stays. */
  public void epShutdown() {
    synchronized (epState) {
      NativeCalls.call(bound(TeFunction.EP_SHUTDOWN));
      epInitialized = false;
      cachedTopK = null;
      prepared.clear();
    }
  }

  /** Whether {@link #epInitialize} succeeded and {@link #epShutdown} has not been called since. */
  public boolean epInitialized() {
    synchronized (epState) {
      return epInitialized;
    }
  }

  /** {@code nvte_ep_handle_mem_size}: the bytes of handle memory a layer needs. */
  public long epHandleMemSize(TeEpLayerConfig layerConfig) {
    MemorySegment layer = layerConfig.struct();
    synchronized (epState) {
      requireInitialized(TeFunction.EP_HANDLE_MEM_SIZE.symbol);
      try {
        return (long) bound(TeFunction.EP_HANDLE_MEM_SIZE).invokeExact(layer);
      } catch (Throwable t) {
        throw NativeCalls.rethrow(t);
      }
    }
  }

  /**
   * {@code nvte_ep_prepare}: seeds {@code handleMem} with this step's routing ({@code topkIdx}, int64
   * [tokens, top_k]); the counters are optional (null).
   */
  public void epPrepare(NvteTensor handleMem, NvteTensor topkIdx, NvteTensor recvTokensPerExpert,
      NvteTensor totalRecvTokensPerRank, TeEpLayerConfig layerConfig, MemorySegment stream) {
    String fn = TeFunction.EP_PREPARE.symbol;
    MemorySegment layerStruct = layerConfig.struct();
    synchronized (epState) {
      requireInitialized(fn);
      long memory = handleMemory(fn, handleMem);
      int topK = layerConfig.topK();
      long alignment = layerConfig.dispatchOutputPerExpertAlignment();
      dims(fn, "topk_idx", topkIdx, 2);
      described(fn, "topk_idx", topkIdx);
      if (recvTokensPerExpert != null) {
        described(fn, "recv_tokens_per_expert", recvTokensPerExpert);
      }
      if (totalRecvTokensPerRank != null) {
        described(fn, "total_recv_tokens_per_rank", totalRecvTokensPerRank);
      }
      if (cachedTopK != null && (cachedTopK != topK || cachedAlignment != alignment)) {
        throw new IllegalArgumentException(fn + ": top_k " + topK + " and alignment " + alignment + " disagree with"
            + " the process-wide cached top_k " + cachedTopK + " and alignment " + cachedAlignment
            + " (TE keeps the first prepare's layer config)");
      }
      NativeCalls.call(bound(TeFunction.EP_PREPARE), handleMem.handle(), topkIdx.handle(),
          handleOrNull(recvTokensPerExpert), handleOrNull(totalRecvTokensPerRank), layerStruct,
          NativeCalls.orNull(stream));
      if (cachedTopK == null) {
        cachedTopK = topK;
        cachedAlignment = alignment;
      }
      prepared.add(memory);
    }
  }

  /**
   * {@code nvte_ep_dispatch}: forward when {@code topkWeights} is given (then {@code topkIdx} 2-D and
   * {@code recvTopkWeights} 1-D are required), backward of combine otherwise.
   */
  public void epDispatch(NvteTensor handleMem, NvteTensor topkIdx, NvteTensor tokens, CommWindow tokensWin,
      NvteTensor topkWeights, CommWindow topkWeightsWin, NvteTensor recvTokens, CommWindow recvTokensWin,
      NvteTensor recvTopkWeights, CommWindow recvTopkWeightsWin, MemorySegment stream) {
    String fn = TeFunction.EP_DISPATCH.symbol;
    synchronized (epState) {
      requirePrepared(fn, handleMem);
      tokens(fn, "tokens", tokens);
      tokens(fn, "recv_tokens", recvTokens);
      if (tokens.dtype() == TeDataType.FLOAT8_E4M3 || tokens.dtype() == TeDataType.FLOAT8_E5M2) {
        throw new IllegalArgumentException(fn + ": FP8 tokens need a block scaling mode (e.g. MXFP8); this tensor"
            + " has per-tensor scaling");
      }
      described(fn, "tokens", tokens, tokensWin);
      described(fn, "recv_tokens", recvTokens, recvTokensWin);
      if (topkWeights != null) {
        if (topkIdx == null) {
          throw new IllegalArgumentException(fn + ": topk_idx is required in forward dispatch");
        }
        dims(fn, "topk_idx", topkIdx, 2);
        dims(fn, "topk_weights", topkWeights, 2);
        if (recvTopkWeights == null) {
          throw new IllegalArgumentException(fn + ": recv_topk_weights must not be null in forward dispatch");
        }
        dims(fn, "recv_topk_weights", recvTopkWeights, 1);
        described(fn, "topk_weights", topkWeights, topkWeightsWin);
        described(fn, "recv_topk_weights", recvTopkWeights, recvTopkWeightsWin);
      }
      try (Arena arena = Arena.ofConfined()) {
        bound(TeFunction.EP_DISPATCH).invokeExact(handleMem.handle(), handleOrNull(topkIdx), tokens.handle(),
            window(arena, tokensWin), handleOrNull(topkWeights), window(arena, topkWeightsWin), recvTokens.handle(),
            window(arena, recvTokensWin), handleOrNull(recvTopkWeights), window(arena, recvTopkWeightsWin),
            NativeCalls.orNull(stream));
      } catch (Throwable t) {
        throw NativeCalls.rethrow(t);
      }
    }
  }

  /** {@code nvte_ep_combine}: sums the experts' outputs back into each token's row of {@code result}. */
  public void epCombine(NvteTensor handleMem, NvteTensor expertOut, CommWindow expertOutWin, NvteTensor result,
      MemorySegment stream) {
    String fn = TeFunction.EP_COMBINE.symbol;
    synchronized (epState) {
      requirePrepared(fn, handleMem);
      dims(fn, "expert_out", expertOut, 2);
      dims(fn, "result", result, 2);
      described(fn, "expert_out", expertOut, expertOutWin);
      described(fn, "result", result);
      try (Arena arena = Arena.ofConfined()) {
        NativeCalls.call(bound(TeFunction.EP_COMBINE), handleMem.handle(), expertOut.handle(),
            window(arena, expertOutWin), result.handle(), NativeCalls.orNull(stream));
      }
    }
  }

  /** {@code nvte_ep_dispatch_bwd}: routes per-receive-slot gradients back to their source tokens. */
  public void epDispatchBwd(NvteTensor handleMem, NvteTensor grad, CommWindow gradWin, NvteTensor gRecvTopkWeights,
      CommWindow gRecvTopkWeightsWin, NvteTensor gradTokens, NvteTensor gradTopkWeights, MemorySegment stream) {
    String fn = TeFunction.EP_DISPATCH_BWD.symbol;
    synchronized (epState) {
      requirePrepared(fn, handleMem);
      dims(fn, "grad", grad, 2);
      dims(fn, "grad_tokens", gradTokens, 2);
      dims(fn, "g_recv_topk_weights", gRecvTopkWeights, 1);
      dims(fn, "grad_topk_weights", gradTopkWeights, 2);
      described(fn, "grad", grad, gradWin);
      described(fn, "g_recv_topk_weights", gRecvTopkWeights, gRecvTopkWeightsWin);
      described(fn, "grad_tokens", gradTokens);
      described(fn, "grad_topk_weights", gradTopkWeights);
      try (Arena arena = Arena.ofConfined()) {
        bound(TeFunction.EP_DISPATCH_BWD).invokeExact(handleMem.handle(), grad.handle(), window(arena, gradWin),
            gRecvTopkWeights.handle(), window(arena, gRecvTopkWeightsWin), gradTokens.handle(),
            gradTopkWeights.handle(), NativeCalls.orNull(stream));
      } catch (Throwable t) {
        throw NativeCalls.rethrow(t);
      }
    }
  }

  /** {@code nvte_ep_combine_bwd}: replicates each source token's gradient to its receive slots. */
  public void epCombineBwd(NvteTensor handleMem, NvteTensor grad, CommWindow gradWin, NvteTensor gradExpertOut,
      CommWindow gradExpertOutWin, MemorySegment stream) {
    String fn = TeFunction.EP_COMBINE_BWD.symbol;
    synchronized (epState) {
      requirePrepared(fn, handleMem);
      tokens(fn, "grad", grad);
      tokens(fn, "grad_expert_out", gradExpertOut);
      described(fn, "grad", grad, gradWin);
      described(fn, "grad_expert_out", gradExpertOut, gradExpertOutWin);
      try (Arena arena = Arena.ofConfined()) {
        NativeCalls.call(bound(TeFunction.EP_COMBINE_BWD), handleMem.handle(), grad.handle(), window(arena, gradWin),
            gradExpertOut.handle(), window(arena, gradExpertOutWin), NativeCalls.orNull(stream));
      }
    }
  }

  // TE's checks, made in Java first.

  private void requireInitialized(String fn) {
    if (!epInitialized) {
      throw new IllegalStateException(fn + " refused: EP is not initialized; call epInitialize() first");
    }
  }

  /** What a dispatch, a combine and their backward passes need first: EP initialized, handle memory prepared. */
  private void requirePrepared(String fn, NvteTensor handleMem) {
    requireInitialized(fn);
    handleMemory(fn, handleMem);
    if (!prepared.contains(handleMem.data().address()) && cachedTopK == null) {
      throw new IllegalStateException(fn + " refused: no epPrepare() has run on this handle memory or any other;"
          + " call epPrepare() first");
    }
  }

  private static long handleMemory(String fn, NvteTensor handleMem) {
    Objects.requireNonNull(handleMem, "handle_mem");
    require(!handleMem.data().equals(MemorySegment.NULL), fn, "handle_mem tensor data must not be null");
    return handleMem.data().address();
  }

  private static void dims(String fn, String name, NvteTensor tensor, int ndim) {
    Objects.requireNonNull(tensor, name);
    require(tensor.ndim() == ndim, fn, name + " must be " + ndim + "-D, got shape " + tensor);
  }

  /** A tensor of token rows: 2-D, its dtype no wider than the group's {@code max_token_dtype}. */
  private void tokens(String fn, String name, NvteTensor tensor) {
    dims(fn, name, tensor, 2);
    require(tensor.dtype().bytes() <= maxTokenDtype.bytes(), fn, name + " dtype (" + tensor.dtype()
        + ") is wider than the group's max_token_dtype (" + maxTokenDtype + ")");
  }

  private static void described(String fn, String name, NvteTensor tensor) {
    described(fn, name, tensor, CommWindow.NONE);
  }

  /** TE's make_nccl_ep_tensor: a dtype NCCL knows, and data (or a window) unless the tensor is empty. */
  private static void described(String fn, String name, NvteTensor tensor, CommWindow window) {
    TeDataType dtype = tensor.dtype();
    require(dtype != TeDataType.INT16 && dtype != TeDataType.FLOAT4_E2M1, fn, name + ": NVTEDType " + dtype
        + " has no NCCL data type (TE's EP supports byte, int32, int64, float32, float16, bfloat16 and FP8)");
    require(window != null && (window.hasWindow() || !tensor.data().equals(MemorySegment.NULL)
        || tensor.numel() == 0), fn, name + ": non-empty tensor data must not be null");
  }

  private static void require(boolean condition, String fn, String message) {
    if (!condition) {
      throw new IllegalArgumentException(fn + " refused before the native call: " + message);
    }
  }

  private static MemorySegment handleOrNull(NvteTensor tensor) {
    return tensor == null ? MemorySegment.NULL : tensor.handle();
  }

  private static MemorySegment window(Arena arena, CommWindow window) {
    return (window == null ? CommWindow.NONE : window).toStruct(arena);
  }

  private MethodHandle bound(TeFunction f) {
    return functions.get(f.ordinal(), f.symbol, f.descriptor);
  }
}
