package dev.tewheel.runtime.ncclep;

import dev.tewheel.runtime.internal.ffm.NativeObject;
import dev.tewheel.runtime.nccl.NcclComm;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An NCCL EP group ({@code ncclEpGroup_t}) made by {@link NcclEp#createGroup(NcclComm, NcclEpGroupConfig)};
 * {@link #close()} destroys its open handles and then the group ({@code ncclEpGroupDestroy}) once, and any use after
 * that throws {@link IllegalStateException}. Close it before the communicator.
 */
public final class EpGroup implements AutoCloseable {
  private final NcclEp ep;
  private final NativeObject group;
  private final NcclEpGroupConfig config;
  private final Set<EpHandle> handles = ConcurrentHashMap.newKeySet();

  EpGroup(NcclEp ep, MemorySegment group, NcclEpGroupConfig config) {
    this.ep = ep;
    this.group = new NativeObject(group, "the NCCL EP group was destroyed (ncclEpGroupDestroy)");
    this.config = config;
  }

  /** The native {@code ncclEpGroup_t}. */
  public MemorySegment segment() {
    return group.address();
  }

  /** The config the group was created with. */
  public NcclEpGroupConfig config() {
    return config;
  }

  /** {@code ncclEpHandleMemSize}: the bytes of routing memory a handle of {@code layout} needs. */
  public long handleMemSize(EpLayout layout, NcclEpHandleConfig handleConfig, int numTopk) {
    return ep.handleMemSize(segment(), layout, handleConfig, numTopk);
  }

  /**
   * {@code ncclEpInitHandle} over routing memory the library allocates (with the group's allocator); may be
   * collective (see {@code nccl_ep.h}). Route it with {@link EpHandle#update} before the first dispatch.
   */
  public EpHandle initHandle(EpLayout layout, NcclEpHandleConfig handleConfig, int numTopk) {
    return handle(layout, ep.initHandle(segment(), layout, handleConfig, numTopk, MemorySegment.NULL));
  }

  /**
   * {@code ncclEpInitHandle} over caller-owned routing memory: {@code handleMem}, a 1-D uint8 tensor of at least
   * {@link #handleMemSize} bytes, which the handle does not free.
   */
  public EpHandle initHandle(EpLayout layout, NcclEpHandleConfig handleConfig, int numTopk, EpTensor handleMem) {
    return handle(layout, ep.initHandle(segment(), layout, handleConfig, numTopk, handleMem.segment()));
  }

  /**
   * {@code ncclEpCreateHandle}, collective: {@link #initHandle} (library-allocated memory, {@code top_k} from
   * {@code topkIdx}'s second size) and {@link EpHandle#update} in one call.
   */
  public EpHandle createHandle(EpLayout layout, EpTensor topkIdx, NcclEpLayoutInfo layoutInfo,
      NcclEpHandleConfig handleConfig, MemorySegment stream) {
    Objects.requireNonNull(layout, "layout");
    EpCallRules.update("ncclEpCreateHandle", config.algorithm(), Objects.requireNonNull(layoutInfo, "layoutInfo"));
    return handle(layout, ep.createHandle(segment(), layout.code(), topkIdx.segment(), layoutInfo.segment(),
        handleConfig.struct(), stream));
  }

  private EpHandle handle(EpLayout layout, MemorySegment created) {
    EpHandle handle = new EpHandle(this, created, layout);
    handles.add(handle);
    return handle;
  }

  /** {@code ncclEpGetAsyncError}: the group's pending asynchronous error, 0 when none. */
  public int asyncError() {
    return ep.getAsyncError(segment());
  }

  /** {@code ncclEpErrorClear}. */
  public void errorClear() {
    ep.errorClear(segment());
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
      ep.groupDestroy(g);
    });
  }

  NcclEp ep() {
    return ep;
  }

  void forget(EpHandle handle) {
    handles.remove(Objects.requireNonNull(handle));
  }
}
