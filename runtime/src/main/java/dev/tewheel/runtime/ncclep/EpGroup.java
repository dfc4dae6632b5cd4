package dev.tewheel.runtime.ncclep;

import static dev.tewheel.runtime.internal.ffm.NativeCalls.call;
import static dev.tewheel.runtime.internal.ffm.NativeCalls.orNull;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.tewheel.runtime.internal.ffm.NativeCalls;
import dev.tewheel.runtime.internal.ffm.NativeObject;
import dev.tewheel.runtime.nccl.NcclComm;
import dev.tewheel.runtime.nccl.NcclDataType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An NCCL EP group ({@code ncclEpGroup_t}) made by {@link NcclEp#createGroup(NcclComm, NcclEpGroupConfig)};
 * {@link #close()} destroys its open handles and then the group ({@code ncclEpGroupDestroy}) once, and any use after
 * that throws {@link IllegalStateException}. Close it before the communicator.
 */
public final class EpGroup implements AutoCloseable {
  /** Each thread's {@code size_t} out-parameter of ncclEpHandleMemSize, a heap segment made once per thread. */
  private static final ThreadLocal<MemorySegment> SIZE_OUT =
      ThreadLocal.withInitial(() -> MemorySegment.ofArray(new long[1]));

  private final NativeObject group;
  private final NcclEpGroupConfig config;
  private final NcclComm comm;
  private final Set<EpHandle> handles = ConcurrentHashMap.newKeySet();

  EpGroup(MemorySegment group, NcclEpGroupConfig config, NcclComm comm) {
    this.group = new NativeObject(group, "the NCCL EP group was destroyed (ncclEpGroupDestroy)");
    this.config = config;
    this.comm = comm;
  }

  /** The native {@code ncclEpGroup_t}. */
  public MemorySegment segment() {
    return group.address();
  }

  /** The config the group was created with. */
  public NcclEpGroupConfig config() {
    return config;
  }

  /**
   * {@code ncclEpHandleMemSize}: the bytes of routing memory a handle of {@code layout} needs. The size comes back
   * through this thread's heap buffer (a critical downcall writes it; no upcall can reenter), so a call allocates
   * nothing.
   */
  public long handleMemSize(EpLayout layout, NcclEpHandleConfig handleConfig, int numTopk) {
    MemorySegment out = SIZE_OUT.get();
    try {
      NcclEp.Bound.HANDLE_MEM_SIZE.invokeExact(segment(), layout.code(), handleConfig.struct(), out, numTopk);
    } catch (Throwable t) {
      throw NativeCalls.rethrow(t);
    }
    return out.get(JAVA_LONG, 0);
  }

  /**
   * {@code ncclEpInitHandle} over routing memory the library allocates (with the group's allocator); may be
   * collective (see {@code nccl_ep.h}). Route it with {@link EpHandle#update} before the first dispatch.
   */
  public EpHandle initHandle(EpLayout layout, NcclEpHandleConfig handleConfig, int numTopk) {
    return initHandle(layout, handleConfig, numTopk, MemorySegment.NULL);
  }

  /**
   * {@code ncclEpInitHandle} over caller-owned routing memory: {@code handleMem}, a 1-D uint8 tensor of at least
   * {@link #handleMemSize} bytes, which the handle does not free.
   */
  public EpHandle initHandle(EpLayout layout, NcclEpHandleConfig handleConfig, int numTopk, EpTensor handleMem) {
    return initHandle(layout, handleConfig, numTopk, handleMem.segment());
  }

  private EpHandle initHandle(EpLayout layout, NcclEpHandleConfig handleConfig, int numTopk, MemorySegment memory) {
    MemorySegment g = segment();
    MemorySegment config = handleConfig.struct();
    return handle(layout, NcclEp.created(out -> {
      NcclEp.Bound.INIT_HANDLE.invokeExact(out, g, layout.code(), config, numTopk, memory);
    }));
  }

  /**
   * {@code ncclEpCreateHandle}, collective: {@link #initHandle} (library-allocated memory, {@code top_k} from
   * {@code topkIdx}'s second size) and {@link EpHandle#update} in one call.
   */
  public EpHandle createHandle(EpLayout layout, EpTensor topkIdx, NcclEpLayoutInfo layoutInfo,
      NcclEpHandleConfig handleConfig, MemorySegment stream) {
    Objects.requireNonNull(layout, "layout");
    EpCallRules.update("ncclEpCreateHandle", config.algorithm(), Objects.requireNonNull(layoutInfo, "layoutInfo"));
    MemorySegment g = segment();
    MemorySegment topk = topkIdx.segment();
    MemorySegment info = layoutInfo.segment();
    MemorySegment config = handleConfig.struct();
    return handle(layout, NcclEp.created(out -> {
      NcclEp.Bound.CREATE_HANDLE.invokeExact(out, g, layout.code(), topk, info, config, orNull(stream));
    }));
  }

  private EpHandle handle(EpLayout layout, MemorySegment created) {
    EpHandle handle = new EpHandle(this, created, layout);
    handles.add(handle);
    return handle;
  }

  /**
   * {@code ncclEpMaskQuery} (a group made with {@code enableMask}): writes each rank's mask, 1 active and 0 masked,
   * into {@code maskStatus}, a 1-D int32 tensor of one element per rank in device memory, on {@code stream}.
   */
  public void maskQuery(EpTensor maskStatus, MemorySegment stream) {
    requireMask("ncclEpMaskQuery");
    long[] sizes = maskStatus.sizes();
    if (maskStatus.datatype() != NcclDataType.INT32 || sizes.length != 1 || sizes[0] != comm.count()) {
      throw new IllegalArgumentException("ncclEpMaskQuery refused before the native call: mask_status is "
          + maskStatus.datatype() + " " + Arrays.toString(sizes) + "; it must be INT32 [" + comm.count()
          + "] (one int per rank)");
    }
    call(NcclEp.Bound.MASK_QUERY, segment(), maskStatus.data(), orNull(stream));
  }

  /**
   * {@code ncclEpMaskUpdate} (a group made with {@code enableMask}): sets every rank's mask at once, 1 active and 0
   * masked, from {@code mask}, one value per rank (host memory, as the header asks).
   */
  public void maskUpdate(int[] mask, MemorySegment stream) {
    requireMask("ncclEpMaskUpdate");
    if (mask.length != comm.count() || Arrays.stream(mask).anyMatch(m -> m != 0 && m != 1)) {
      throw new IllegalArgumentException("ncclEpMaskUpdate refused before the native call: the mask is "
          + Arrays.toString(mask) + "; it must hold " + comm.count() + " values (one per rank), each 1 (active) or"
          + " 0 (masked)");
    }
    try (Arena arena = Arena.ofConfined()) {
      call(NcclEp.Bound.MASK_UPDATE, segment(), arena.allocateFrom(JAVA_INT, mask), orNull(stream));
    }
  }

  /**
   * {@code ncclEpMaskClean} (a group made with {@code enableMask}), collective over the ranks still active: every
   * rank active again; the asynchronous error stays until {@link #errorClear()}.
   */
  public void maskClean(MemorySegment stream) {
    requireMask("ncclEpMaskClean");
    call(NcclEp.Bound.MASK_CLEAN, segment(), orNull(stream));
  }

  private void requireMask(String function) {
    if (!config.enableMask()) {
      throw new IllegalArgumentException(function + " refused before the native call: the group was made without"
          + " enableMask, which rank masking needs");
    }
  }

  /** {@code ncclEpGetAsyncError}: the group's pending asynchronous error, 0 when none. */
  public int asyncError() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(JAVA_INT);
      call(NcclEp.Bound.GET_ASYNC_ERROR, segment(), out);
      return out.get(JAVA_INT, 0);
    }
  }

  /** {@code ncclEpErrorClear}. */
  public void errorClear() {
    call(NcclEp.Bound.ERROR_CLEAR, segment());
  }

  public boolean isClosed() {
    return group.isClosed();
  }

  /** Its open handles' {@code ncclEpHandleDestroy}, then {@code ncclEpGroupDestroy}; a second call does nothing. */
  @Override
  public void close() {
    group.close(g -> {
      for (EpHandle handle : new ArrayList<>(handles)) {
        handle.close();
      }
      call(NcclEp.Bound.GROUP_DESTROY, g);
    });
  }

  void forget(EpHandle handle) {
    handles.remove(Objects.requireNonNull(handle));
  }
}
