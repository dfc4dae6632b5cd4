package dev.tewheel.runtime;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.error.LoadException;
import dev.tewheel.runtime.error.NcclEpException;
import dev.tewheel.runtime.error.UnresolvedSymbolException;
import dev.tewheel.runtime.nccl.Nccl;
import dev.tewheel.runtime.nccl.NcclComm;
import dev.tewheel.runtime.nccl.NcclDataType;
import dev.tewheel.runtime.ncclep.EpAlgorithm;
import dev.tewheel.runtime.ncclep.EpGroup;
import dev.tewheel.runtime.ncclep.EpHandle;
import dev.tewheel.runtime.ncclep.EpLayout;
import dev.tewheel.runtime.ncclep.EpTensor;
import dev.tewheel.runtime.ncclep.NcclEp;
import dev.tewheel.runtime.ncclep.NcclEpCombineConfig;
import dev.tewheel.runtime.ncclep.NcclEpCombineInputs;
import dev.tewheel.runtime.ncclep.NcclEpCombineOutputs;
import dev.tewheel.runtime.ncclep.NcclEpDispatchConfig;
import dev.tewheel.runtime.ncclep.NcclEpDispatchInputs;
import dev.tewheel.runtime.ncclep.NcclEpDispatchOutputs;
import dev.tewheel.runtime.ncclep.NcclEpGroupConfig;
import dev.tewheel.runtime.ncclep.NcclEpHandleConfig;
import dev.tewheel.runtime.ncclep.NcclEpLayoutInfo;
import dev.tewheel.runtime.ncclep.NcclEpStructs;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** load() is once per process: concurrent callers share one attempt, and the handle calls NCCL EP. */
class ConcurrentLoadTest {
  @TempDir Path temp;

  @Test
  void sixtyFourThreadsCallingLoadAtOnceGetOneHandle() throws Exception {
    FreshJvm.run(getClass(), "sixtyFourThreads", temp);
  }

  @Test
  void theHandleCallsTheNcclEpFunctions() throws Exception {
    FreshJvm.run(getClass(), "callEveryFunction", temp);
  }

  @Test
  void aSecondBundleIsRefusedOnceOneIsLoaded() throws Exception {
    FreshJvm.run(getClass(), "secondBundle", temp);
  }

  static void sixtyFourThreads(Path temp) throws Exception {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    int threads = 64;
    CyclicBarrier start = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<NcclEp>> results = new ArrayList<>();
    TeRuntime shared = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build();
    for (int i = 0; i < threads; i++) {
      // Half share one TeRuntime, half build their own with the same configuration.
      TeRuntime runtime = i % 2 == 0 ? shared
          : TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build();
      results.add(pool.submit(() -> {
        start.await();
        return runtime.loadNcclEp();
      }));
    }
    Set<NcclEp> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Future<NcclEp> result : results) {
      distinct.add(result.get());
    }
    pool.shutdown();
    assertEquals(1, distinct.size(), "64 concurrent load() calls must share one NcclEp");
    NcclEp ep = distinct.iterator().next();
    assertEquals(wheelLib.resolve("libnccl_ep.so"), ep.file());
    assertEquals(100, ep.getVersion());
    assertSame(ep, shared.loadNcclEp());
    // One mapping of the library in the process: the dynamic linker opened the file once.
    long mappings = Files.readAllLines(Path.of("/proc/self/maps")).stream()
        .filter(line -> line.endsWith(wheelLib.resolve("libnccl_ep.so").toString()))
        .map(line -> line.split("\\s+")[4]).distinct().count();
    assertEquals(1, mappings);
  }

  static void callEveryFunction(Path temp) throws Throwable {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    NcclEp ep = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build().loadNcclEp();
    assertEquals("0.1.0", ep.version().toString());
    assertEquals(100, ep.getVersion());
    // The JIT's headers: NCCL_EP_HOME set to the bundle's nccl_ep before NCCL EP was opened, as TE's provider does.
    assertEquals(wheelLib.resolve("nccl_ep").toString(), Bundles.getenv("NCCL_EP_HOME"));
    assertTrue(ep.ncclEpHome().orElseThrow().setByRuntime());
    Nccl nccl = ep.nccl();
    assertEquals("invalid argument (run with NCCL_DEBUG=WARN for details)", nccl.errorString(4));

    int tokens = 2;
    int hidden = 4;
    try (NcclComm comm = nccl.commInitRank(1, nccl.uniqueId(), 0); Arena arena = Arena.ofConfined()) {
      NcclEpGroupConfig.Builder config = NcclEpGroupConfig.builder().algorithm(EpAlgorithm.HIGH_THROUGHPUT)
          .maxDispatchTokensPerRank(tokens).maxTokenBytes(hidden * 4);
      MemorySegment struct = config.numExperts(2).build().allocate(arena);
      assertEquals(112, struct.get(JAVA_INT, 0));
      assertEquals(NcclEpStructs.MAGIC, struct.get(JAVA_INT, 4));
      assertEquals(NcclEpStructs.API_VERSION, struct.get(JAVA_INT, 8));
      // num_experts 0: NCCL EP would assert (ending the process), so te-runtime refuses before any native call.
      IllegalArgumentException asserted = assertThrows(IllegalArgumentException.class,
          () -> ep.createGroup(comm, config.numExperts(0).build()));
      assertTrue(asserted.getMessage().contains("num_experts"), asserted.getMessage());
      // More SMs than the device has: NCCL EP returns ncclInvalidUsage, and the text is NCCL's.
      NcclEpException refused = assertThrows(NcclEpException.class,
          () -> ep.createGroup(comm, config.numExperts(2).maxNumSms(1 << 20).build()));
      assertEquals("ncclEpCreateGroup failed with 5 (" + nccl.errorString(5) + ")", refused.getMessage());
      assertEquals(5, refused.result());

      EpGroup group = ep.createGroup(comm, config.numExperts(4) // HT wants a multiple of 4 per rank
          .maxNumSms(0).maxRecvTokensPerRank(tokens).numTopk(1)
          .enableMask(true).build()); // the async error functions need it
      assertEquals(0, group.asyncError());
      group.errorClear();

      long memSize = group.handleMemSize(EpLayout.EXPERT_MAJOR, NcclEpHandleConfig.DEFAULT, 1);
      EpTensor handleMem = ep.tensor(NcclDataType.UINT8, arena.allocate(memSize, 256), memSize);
      EpHandle handle = group.initHandle(EpLayout.EXPERT_MAJOR, NcclEpHandleConfig.DEFAULT, 1, handleMem);
      // Token 0 to expert 1, token 1 to expert 0.
      MemorySegment routes = arena.allocateFrom(JAVA_LONG, 1, 0);
      handle.update(ep.tensor(NcclDataType.INT64, routes, tokens, 1), NcclEpLayoutInfo.NONE, MemorySegment.NULL);

      MemorySegment input = arena.allocateFrom(ValueLayout.JAVA_FLOAT, 1, 2, 3, 4, 5, 6, 7, 8);
      MemorySegment received = arena.allocate(ValueLayout.JAVA_FLOAT, (long) tokens * hidden);
      MemorySegment weights = arena.allocateFrom(ValueLayout.JAVA_FLOAT, 0.5f, 0.75f);
      MemorySegment receivedWeights = arena.allocate(ValueLayout.JAVA_FLOAT, tokens);
      EpTensor receivedT = ep.tensor(NcclDataType.FLOAT32, received, tokens, hidden);
      handle.dispatch(new NcclEpDispatchInputs(ep.tensor(NcclDataType.FLOAT32, input, tokens, hidden),
              ep.tensor(NcclDataType.FLOAT32, weights, tokens, 1), null),
          new NcclEpDispatchOutputs(receivedT, ep.tensor(NcclDataType.FLOAT32, receivedWeights, tokens), null, null),
          NcclEpLayoutInfo.NONE, NcclEpDispatchConfig.DEFAULT, MemorySegment.NULL);
      // Expert-major: expert 0 holds token 1, expert 1 holds token 0.
      assertArrayEquals(new float[] {5, 6, 7, 8, 1, 2, 3, 4}, received.toArray(ValueLayout.JAVA_FLOAT));
      assertArrayEquals(new float[] {0.75f, 0.5f}, receivedWeights.toArray(ValueLayout.JAVA_FLOAT));

      MemorySegment combined = arena.allocate(ValueLayout.JAVA_FLOAT, (long) tokens * hidden);
      handle.combine(new NcclEpCombineInputs(receivedT, null, null),
          new NcclEpCombineOutputs(ep.tensor(NcclDataType.FLOAT32, combined, tokens, hidden), null),
          NcclEpCombineConfig.DEFAULT, MemorySegment.NULL);
      assertArrayEquals(input.toArray(ValueLayout.JAVA_FLOAT), combined.toArray(ValueLayout.JAVA_FLOAT));

      // High throughput has no send_only operation to complete: refused before ncclEpComplete.
      assertThrows(IllegalArgumentException.class, () -> handle.complete(MemorySegment.NULL));
      handle.close();
      try (EpTensor allocated = ep.allocateTensor(NcclDataType.FLOAT32, tokens, hidden)) {
        assertEquals(2, allocated.segment().get(JAVA_INT, NcclEpStructs.offset(NcclEpStructs.TENSOR, "ndim")));
      }
      group.close();
      assertThrows(IllegalStateException.class, group::errorClear);
    }

    MethodHandle getVersion = ep.function("ncclEpGetVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    assertSame(getVersion, ep.function("ncclEpGetVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS)));
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment version = arena.allocate(JAVA_INT);
      assertEquals(0, (int) getVersion.invokeExact(version));
      assertEquals(100, version.get(JAVA_INT, 0));
    }
    UnresolvedSymbolException missing = assertThrows(UnresolvedSymbolException.class,
        () -> ep.function("ncclEpNoSuchFunction", FunctionDescriptor.ofVoid()));
    assertTrue(missing.getMessage().startsWith("Unresolved symbol: ncclEpNoSuchFunction in "), missing.getMessage());
  }

  static void secondBundle(Path temp) throws Exception {
    Path first = Bundles.defaultLayout(temp.resolve("first"));
    Path second = Bundles.defaultLayout(temp.resolve("second"));
    NcclEp ep = TeRuntime.builder().wheelLib(first).ncclLibrary(Bundles.NCCL).build().loadNcclEp();
    // Another configuration selecting the same file gets the same NCCL EP.
    assertSame(ep, TeRuntime.builder().wheelLib(first).ncclLibrary(Bundles.NCCL).ncclEpMajor(0).build().loadNcclEp());
    LoadException refused = assertThrows(LoadException.class,
        () -> TeRuntime.builder().wheelLib(second).ncclLibrary(Bundles.NCCL).build().loadNcclEp());
    assertTrue(refused.getMessage().startsWith("NCCL EP is already loaded in this process from "
        + first.resolve("libnccl_ep.so")), refused.getMessage());
    assertEquals(java.util.Optional.of(first.resolve("libnccl_ep.so")), refused.availability().loadedElsewhere());
  }
}
