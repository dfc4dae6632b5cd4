package dev.tewheel.runtime;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.error.LoadException;
import dev.tewheel.runtime.nccl.Nccl;
import dev.tewheel.runtime.nccl.NcclComm;
import dev.tewheel.runtime.report.Availability;
import dev.tewheel.runtime.report.NcclStatus;
import dev.tewheel.runtime.te.CommWindow;
import dev.tewheel.runtime.te.NvteTensor;
import dev.tewheel.runtime.te.TeDataType;
import dev.tewheel.runtime.te.TeEpGroupConfig;
import dev.tewheel.runtime.te.TeEpLayerConfig;
import dev.tewheel.runtime.te.TeStructs;
import dev.tewheel.runtime.te.TransformerEngine;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TE's expert-parallel call sequence from Java through te-runtime's public API, on the stand-ins:
 * loadTransformerEngine → NCCL communicator → nvte_ep_initialize (TE's provider sets nothing, te-runtime already set
 * NCCL_EP_HOME, and dlopens NCCL EP from the bundle) → handle_mem_size → prepare → dispatch → combine → shutdown.
 * One rank, four experts, top-2 routing: the data that comes back proves the calls reached NCCL EP with the real
 * structs.
 */
class TeEpSequenceTest {
  static final int TOKENS = 4;
  static final int HIDDEN = 8;
  static final int EXPERTS = 4;
  static final int TOP_K = 2;
  /** Token t goes to experts ROUTES[t][0] and ROUTES[t][1]. */
  static final long[][] ROUTES = {{0, 1}, {2, 3}, {1, 2}, {3, 0}};

  @TempDir Path temp;

  @Test
  void theWholeSequenceMovesDataThroughNcclEpFromTheBundle() throws Exception {
    FreshJvm.run(getClass(), "sequence", temp);
  }

  @Test
  void anNcclOlderThan2304IsRefusedBeforeAnyNativeCallAndNcclEpIsNeverOpened() throws Exception {
    FreshJvm.run(getClass(), "oldNccl", temp);
  }

  @Test
  void aThrowThroughADowncallEndsTheJvmWhileTheGuardedCallRaises() throws Exception {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    ChildJvm.Result unguarded = ChildJvm.run(ChildJvm.command(List.of("--enable-native-access=ALL-UNNAMED"), null,
        FreshJvm.class, List.of(getClass().getName(), "unguardedInitialize", wheelLib.toString())), Map.of(),
        temp.resolve("logs-unguarded"));
    assertNotEquals(0, unguarded.exit(), unguarded.toString());
    assertEquals(134, unguarded.exit(), "SIGABRT from std::terminate\n" + unguarded);
    assertTrue(unguarded.err().contains("terminate called after throwing an instance of 'std::runtime_error'"),
        unguarded.toString());
    assertFalse(unguarded.out().contains("returned"), unguarded.toString());
    FreshJvm.run(getClass(), "guardedInitialize", wheelLib);
  }

  static void sequence(Path temp) throws Throwable {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    TeRuntime runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build();
    TransformerEngine te = runtime.loadTransformerEngine();
    assertEquals(List.of(), mapped("libnccl_ep"), "NCCL EP is opened only when EP is initialized");
    assertEquals(wheelLib.resolve("nccl_ep").toString(), Bundles.getenv("NCCL_EP_HOME"));
    assertTrue(te.ncclEpHome().orElseThrow().setByRuntime());
    assertTrue(Files.isRegularFile(wheelLib.resolve("nccl_ep/include/nccl_ep/config.h")));
    assertTrue(Files.isRegularFile(wheelLib.resolve("nccl_ep/include/nccl_ep.h")));

    Nccl nccl = te.nccl();
    assertEquals("2.30.4", nccl.version().toString());
    try (NcclComm comm = nccl.commInitRank(1, nccl.uniqueId(), 0); Arena arena = Arena.ofConfined()) {
      assertEquals(1, comm.count());
      assertEquals(0, comm.userRank());
      TeEpGroupConfig group = TeEpGroupConfig.builder().epSize(1).numExperts(EXPERTS).maxTokensPerRank(TOKENS)
          .maxRecvTokensPerRank(TOKENS * TOP_K).hiddenDim(HIDDEN).maxTokenDtype(TeDataType.FLOAT32).numTopk(TOP_K)
          .build();
      te.epInitialize(comm, group);
      assertTrue(te.epInitialized());

      // TE's provider found NCCL EP in the bundle (NCCL_EP_HOME/lib has none in the default layout, so beside
      // libtransformer_engine.so), and only there.
      assertEquals(List.of(wheelLib.resolve("libnccl_ep.so").toString()), mapped("libnccl_ep"));

      TeEpLayerConfig layer = new TeEpLayerConfig(TOP_K, 0);
      long memSize = te.epHandleMemSize(layer);
      assertTrue(memSize > 0, "handle memory size " + memSize);
      MemorySegment memory = arena.allocate(memSize, 256);
      MemorySegment tokens = arena.allocate(JAVA_FLOAT, (long) TOKENS * HIDDEN);
      MemorySegment routes = arena.allocate(JAVA_LONG, (long) TOKENS * TOP_K);
      MemorySegment weights = arena.allocate(JAVA_FLOAT, (long) TOKENS * TOP_K);
      for (int t = 0; t < TOKENS; t++) {
        for (int h = 0; h < HIDDEN; h++) {
          tokens.setAtIndex(JAVA_FLOAT, (long) t * HIDDEN + h, 10 * t + h);
        }
        for (int c = 0; c < TOP_K; c++) {
          routes.setAtIndex(JAVA_LONG, (long) t * TOP_K + c, ROUTES[t][c]);
          weights.setAtIndex(JAVA_FLOAT, (long) t * TOP_K + c, 0.25f * (c + 1));
        }
      }
      MemorySegment perExpert = arena.allocate(JAVA_INT, EXPERTS);
      MemorySegment total = arena.allocate(JAVA_INT, 1);
      MemorySegment received = arena.allocate(JAVA_FLOAT, (long) TOKENS * TOP_K * HIDDEN);
      MemorySegment receivedWeights = arena.allocate(JAVA_FLOAT, (long) TOKENS * TOP_K);
      MemorySegment expertOut = arena.allocate(JAVA_FLOAT, (long) TOKENS * TOP_K * HIDDEN);
      MemorySegment result = arena.allocate(JAVA_FLOAT, (long) TOKENS * HIDDEN);
      try (NvteTensor handleMem = te.createTensor(memory, TeDataType.BYTE, memSize);
          NvteTensor tokensT = te.createTensor(tokens, TeDataType.FLOAT32, TOKENS, HIDDEN);
          NvteTensor routesT = te.createTensor(routes, TeDataType.INT64, TOKENS, TOP_K);
          NvteTensor weightsT = te.createTensor(weights, TeDataType.FLOAT32, TOKENS, TOP_K);
          NvteTensor perExpertT = te.createTensor(perExpert, TeDataType.INT32, EXPERTS);
          NvteTensor totalT = te.createTensor(total, TeDataType.INT32, 1);
          NvteTensor receivedT = te.createTensor(received, TeDataType.FLOAT32, TOKENS * TOP_K, HIDDEN);
          NvteTensor receivedWeightsT = te.createTensor(receivedWeights, TeDataType.FLOAT32, TOKENS * TOP_K);
          NvteTensor expertOutT = te.createTensor(expertOut, TeDataType.FLOAT32, TOKENS * TOP_K, HIDDEN);
          NvteTensor resultT = te.createTensor(result, TeDataType.FLOAT32, TOKENS, HIDDEN)) {
        te.epPrepare(handleMem, routesT, perExpertT, totalT, layer, MemorySegment.NULL);
        assertArrayEquals(new int[] {2, 2, 2, 2}, perExpert.toArray(JAVA_INT), "tokens routed to each expert");
        assertEquals(TOKENS * TOP_K, total.get(JAVA_INT, 0));

        te.epDispatch(handleMem, routesT, tokensT, CommWindow.NONE, weightsT, CommWindow.NONE, receivedT,
            CommWindow.NONE, receivedWeightsT, CommWindow.NONE, MemorySegment.NULL);
        // Expert-major: expert 0's tokens (0, 3), then expert 1's (0, 2), expert 2's (1, 2), expert 3's (1, 3).
        int[] slotToken = {0, 3, 0, 2, 1, 2, 1, 3};
        int[] slotExpert = {0, 0, 1, 1, 2, 2, 3, 3};
        for (int slot = 0; slot < slotToken.length; slot++) {
          for (int h = 0; h < HIDDEN; h++) {
            assertEquals(10f * slotToken[slot] + h, received.getAtIndex(JAVA_FLOAT, (long) slot * HIDDEN + h),
                "slot " + slot + " column " + h);
          }
          int choice = ROUTES[slotToken[slot]][0] == slotExpert[slot] ? 0 : 1;
          assertEquals(0.25f * (choice + 1), receivedWeights.getAtIndex(JAVA_FLOAT, slot), "weight of slot " + slot);
        }

        // Each expert multiplies by (its id + 1); combine sums a token's expert outputs.
        for (int slot = 0; slot < slotToken.length; slot++) {
          for (int h = 0; h < HIDDEN; h++) {
            long at = (long) slot * HIDDEN + h;
            expertOut.setAtIndex(JAVA_FLOAT, at, received.getAtIndex(JAVA_FLOAT, at) * (slotExpert[slot] + 1));
          }
        }
        te.epCombine(handleMem, expertOutT, CommWindow.NONE, resultT, MemorySegment.NULL);
        for (int t = 0; t < TOKENS; t++) {
          float factor = ROUTES[t][0] + 1 + ROUTES[t][1] + 1;
          for (int h = 0; h < HIDDEN; h++) {
            assertEquals(factor * (10f * t + h), result.getAtIndex(JAVA_FLOAT, (long) t * HIDDEN + h),
                "token " + t + " column " + h);
          }
        }

        // The guards: a 3-D token tensor is refused in Java, and TE is still usable afterwards.
        try (NvteTensor cube = te.createTensor(tokens, TeDataType.FLOAT32, 2, 2, HIDDEN)) {
          IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> te.epDispatch(
              handleMem, routesT, cube, CommWindow.NONE, weightsT, CommWindow.NONE, receivedT, CommWindow.NONE,
              receivedWeightsT, CommWindow.NONE, MemorySegment.NULL));
          assertTrue(refused.getMessage().startsWith("nvte_ep_dispatch refused before the native call: tokens must"
              + " be 2-D"), refused.getMessage());
        }
      }
      IllegalStateException twice = assertThrows(IllegalStateException.class, () -> te.epInitialize(comm, group));
      assertTrue(twice.getMessage().contains("already initialized"), twice.getMessage());
      te.epShutdown();
      te.epShutdown(); // idempotent, as TE's
      assertFalse(te.epInitialized());
      IllegalStateException after = assertThrows(IllegalStateException.class, () -> te.epHandleMemSize(layer));
      assertTrue(after.getMessage().startsWith("nvte_ep_handle_mem_size refused: EP is not initialized"),
          after.getMessage());
    }
  }

  static void oldNccl(Path temp) throws Throwable {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    TeRuntime runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.OLD_NCCL).build();
    TransformerEngine te = runtime.loadTransformerEngine();
    Nccl nccl = te.nccl();
    assertEquals("2.28.9", nccl.version().toString());
    Availability availability = runtime.availability();
    assertFalse(availability.available());
    assertEquals(NcclStatus.Source.ALREADY_MAPPED, availability.nccl().source());
    assertTrue(availability.reason().contains("reports 2.28.9, older than the 2.30.4 NCCL EP needs"),
        availability.reason());
    try (NcclComm comm = nccl.commInitRank(1, nccl.uniqueId(), 0); Arena arena = Arena.ofConfined()) {
      TeEpGroupConfig group = TeEpGroupConfig.builder().epSize(1).numExperts(EXPERTS).maxTokensPerRank(TOKENS)
          .hiddenDim(HIDDEN).maxTokenDtype(TeDataType.FLOAT32).build();
      IllegalStateException refused = assertThrows(IllegalStateException.class, () -> te.epInitialize(comm, group));
      assertTrue(refused.getMessage().startsWith("nvte_ep_initialize refused before any native call: NCCL EP is"
          + " not available: libnccl.so.2 already mapped in this process"), refused.getMessage());
      assertTrue(refused.getMessage().contains("2.28.9"), refused.getMessage());
      assertFalse(te.epInitialized());
    }
    assertEquals(List.of(), mapped("libnccl_ep"), "NCCL EP was never dlopened");
    LoadException load = assertThrows(LoadException.class, runtime::loadNcclEp);
    assertTrue(load.getMessage().contains("2.28.9"), load.getMessage());
    assertEquals(List.of(), mapped("libnccl_ep"));
  }

  /** The raw nvte_ep_initialize with a NULL communicator: TE throws, and the exception crosses the downcall. */
  static void unguardedInitialize(Path wheelLib) throws Throwable {
    TransformerEngine te = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build()
        .loadTransformerEngine();
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment group = TeStructs.allocate(arena, TeStructs.EP_GROUP_CONFIG);
      MethodHandle raw = te.function("nvte_ep_initialize",
          FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.ADDRESS));
      try {
        raw.invokeExact(MemorySegment.NULL, group);
      } catch (Throwable t) {
        System.out.println("caught " + t);
      }
      System.out.println("returned");
    }
  }

  /** The same mistake through the typed method: a Java exception, and the JVM lives on. */
  static void guardedInitialize(Path wheelLib) throws Throwable {
    TransformerEngine te = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build()
        .loadTransformerEngine();
    TeEpGroupConfig.Builder group = TeEpGroupConfig.builder().numExperts(EXPERTS).maxTokensPerRank(TOKENS)
        .hiddenDim(HIDDEN).maxTokenDtype(TeDataType.FLOAT32);
    assertThrows(NullPointerException.class, () -> te.epInitialize(null, group.epSize(1).build()));
    // A zeroed ep_size (TE's validate_config would throw through the downcall) never becomes a config.
    IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> group.epSize(0).build());
    assertTrue(zero.getMessage().contains("ep_size must be positive, got 0"), zero.getMessage());
    Nccl nccl = te.nccl();
    try (NcclComm comm = nccl.commInitRank(1, nccl.uniqueId(), 0)) {
      IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
          () -> te.epInitialize(comm, group.epSize(2).build()));
      assertEquals("nvte_ep_initialize refused before the native call: ep_comm size (1) must equal ep_size (2). Pass"
          + " the EP sub-communicator, not the world comm", refused.getMessage());
    }
  }

  /** The files of this process's mappings whose name contains {@code part}, once each. */
  static List<String> mapped(String part) throws Exception {
    return Files.readAllLines(Path.of("/proc/self/maps")).stream().map(line -> line.split("\\s+", 6))
        .filter(f -> f.length == 6 && f[5].contains(part)).map(f -> f[5].strip()).distinct().toList();
  }
}
