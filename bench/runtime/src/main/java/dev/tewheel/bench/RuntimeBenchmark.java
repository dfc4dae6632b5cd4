package dev.tewheel.bench;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.LongByReference;
import dev.tewheel.runtime.ncclep.EpAlgorithm;
import dev.tewheel.runtime.ncclep.EpGroup;
import dev.tewheel.runtime.ncclep.EpLayout;
import dev.tewheel.runtime.nccl.NcclComm;
import dev.tewheel.runtime.ncclep.NcclEp;
import dev.tewheel.runtime.ncclep.NcclEpGroupConfig;
import dev.tewheel.runtime.ncclep.NcclEpHandleConfig;
import dev.tewheel.runtime.TeRuntime;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Per-call overhead of a downcall, side by side, through te-runtime, a JNI stub and JNA (interface mapping and direct
 * mapping); each path calls the same function in the same mapping of the stand-in NCCL EP and checks its status.
 * Two functions: {@code ncclEpGetVersion(int *)}, a trivial getter that te-runtime calls through a cached critical
 * handle writing to a heap array ({@link NcclEp#getVersion()}; targets: at most 1.2x JNI, at least 10x faster than
 * JNA), and {@code ncclEpHandleMemSize(group, layout, config, size_t *, num_topk)}, an ordinary function of the API,
 * through the typed owner ({@link EpGroup#handleMemSize}: the open-group check, the call through its constant
 * critical handle with the size written to a heap array, the status check folded into the handle) and through the
 * raw handle the escape hatch ({@link NcclEp#function}) gives, on a one-rank high-throughput group. Run with {@code -prof gc} for the bytes each
 * call allocates.
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RuntimeBenchmark extends WarmBenchmark {
  private static final int TOPK = 2;
  /** {@code NCCL_EP_LAYOUT_EXPERT_MAJOR}, as the raw handle, JNI and JNA take it. */
  private static final int LAYOUT = EpLayout.EXPERT_MAJOR.code();

  private NcclEp ep;
  private RuntimeJna jna;
  private NcclComm comm;
  private EpGroup epGroup;
  private MemorySegment group;
  /** The raw handle's {@code size_t} out-parameter, a heap segment made once (the critical downcall may take it). */
  private final MemorySegment rawOut = MemorySegment.ofArray(new long[1]);
  /** The NCCL EP {@link Raw}'s handle comes from, set before that holder is initialised. */
  private static NcclEp rawEp;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    ep = TeRuntime.builder().wheelLib(RuntimeFixture.wheelLib()).ncclLibrary(RuntimeFixture.nccl()).build().loadNcclEp();
    System.load(RuntimeFixture.compileJniStub().toString());
    String library = ep.file().toString();
    if (!RuntimeJni.bind(library)) {
      throw new IllegalStateException("the JNI stub could not bind " + library);
    }
    jna = Native.load(library, RuntimeJna.class);
    RuntimeJna.Direct.register(library);
    if (ffm() != 100 || jni() != 100 || jna() != 100 || jnaDirect() != 100) {
      throw new IllegalStateException("the four paths disagree on ncclEpGetVersion");
    }
    comm = ep.nccl().commInitRank(1, ep.nccl().uniqueId(), 0);
    epGroup = ep.createGroup(comm, NcclEpGroupConfig.builder().algorithm(EpAlgorithm.HIGH_THROUGHPUT).numExperts(8)
        .maxDispatchTokensPerRank(16).maxRecvTokensPerRank(32).maxTokenBytes(2048).build());
    group = epGroup.segment();
    rawEp = ep;
    long size = typedHandleMemSize();
    long raw;
    try {
      raw = rawHandleMemSize();
    } catch (Throwable t) {
      throw new IllegalStateException("the raw handle failed", t);
    }
    if (size <= 0 || raw != size || jniHandleMemSize() != size || jnaHandleMemSize() != size
        || jnaDirectHandleMemSize() != size) {
      throw new IllegalStateException("the five paths disagree on ncclEpHandleMemSize");
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    epGroup.close();
    comm.close();
  }

  @Benchmark
  public int ffm() {
    return ep.getVersion();
  }

  @Benchmark
  public int jni() {
    int code = RuntimeJni.versionCode();
    if (code < 0) {
      throw new IllegalStateException("ncclEpGetVersion failed");
    }
    return code;
  }

  @Benchmark
  public int jna() {
    int[] version = new int[1];
    if (jna.ncclEpGetVersion(version) != 0) {
      throw new IllegalStateException("ncclEpGetVersion failed");
    }
    return version[0];
  }

  @Benchmark
  public int jnaDirect() {
    int[] version = new int[1];
    if (RuntimeJna.Direct.ncclEpGetVersion(version) != 0) {
      throw new IllegalStateException("ncclEpGetVersion failed");
    }
    return version[0];
  }

  /** The typed API: the group owner, the layout enum and the handle config's struct written once. */
  @Benchmark
  public long typedHandleMemSize() {
    return epGroup.handleMemSize(EpLayout.EXPERT_MAJOR, NcclEpHandleConfig.DEFAULT, TOPK);
  }

  /**
   * The raw handle, the API's escape hatch ({@link NcclEp#function}), held in a static final as te-runtime holds its
   * own, invoked exactly with the status checked here: no argument check, no folded status check.
   */
  @Benchmark
  public long rawHandleMemSize() throws Throwable {
    int status = (int) Raw.HANDLE_MEM_SIZE.invokeExact(group, LAYOUT, MemorySegment.NULL, rawOut, TOPK);
    if (status != 0) {
      throw new IllegalStateException("ncclEpHandleMemSize failed: " + status);
    }
    return rawOut.get(ValueLayout.JAVA_LONG, 0);
  }

  /** The raw handle of {@code ncclEpHandleMemSize}, bound once (critical, as te-runtime binds it). */
  private static final class Raw {
    static final MethodHandle HANDLE_MEM_SIZE = rawEp.function("ncclEpHandleMemSize",
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
            ValueLayout.ADDRESS, ValueLayout.JAVA_INT), Linker.Option.critical(true));
  }

  @Benchmark
  public long jniHandleMemSize() {
    long size = RuntimeJni.handleMemSize(group.address(), LAYOUT, TOPK);
    if (size < 0) {
      throw new IllegalStateException("ncclEpHandleMemSize failed");
    }
    return size;
  }

  @Benchmark
  public long jnaHandleMemSize() {
    LongByReference size = new LongByReference();
    if (jna.ncclEpHandleMemSize(new Pointer(group.address()), LAYOUT, null, size, TOPK)
        != 0) {
      throw new IllegalStateException("ncclEpHandleMemSize failed");
    }
    return size.getValue();
  }

  @Benchmark
  public long jnaDirectHandleMemSize() {
    long[] size = new long[1];
    if (RuntimeJna.Direct.ncclEpHandleMemSize(group.address(), LAYOUT, null, size, TOPK)
        != 0) {
      throw new IllegalStateException("ncclEpHandleMemSize failed");
    }
    return size[0];
  }
}
