package dev.tewheel.runtime;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.internal.ffm.NcclEpFunction;
import dev.tewheel.runtime.internal.ffm.TeFunction;
import dev.tewheel.runtime.nccl.Nccl;
import dev.tewheel.runtime.nccl.NcclComm;
import dev.tewheel.runtime.nccl.NcclDataType;
import dev.tewheel.runtime.ncclep.EpAlgorithm;
import dev.tewheel.runtime.ncclep.EpGroup;
import dev.tewheel.runtime.ncclep.EpHandle;
import dev.tewheel.runtime.ncclep.EpLayout;
import dev.tewheel.runtime.ncclep.EpPassDirection;
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
import dev.tewheel.runtime.te.TeDataType;
import dev.tewheel.runtime.te.TeEpGroupConfig;
import dev.tewheel.runtime.te.TeEpLayerConfig;
import dev.tewheel.runtime.te.TeStructs;
import dev.tewheel.runtime.te.TransformerEngine;
import dev.tewheel.standins.StandIns;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The typed layer: config builders checked in Java, written as the C initializers write them; owners close once. */
class TypedEpTest {
  @TempDir Path temp;

  @Test
  void anUnsetGroupConfigIsTheInitializersWithTheRequiredFieldsNamed() {
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> NcclEpGroupConfig.builder().build());
    assertEquals("ncclEpGroupConfig_t: num_experts must be greater than 0, got 0; max_dispatch_tokens_per_rank must"
        + " be greater than 0, got 0; max_token_bytes must be greater than 0, got 0", refused.getMessage());
    NcclEpGroupConfig config = NcclEpGroupConfig.builder().numExperts(2).maxDispatchTokensPerRank(4)
        .maxTokenBytes(12).build();
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment s = config.allocate(arena);
      assertEquals(112, s.get(JAVA_INT, 0));
      assertEquals(NcclEpStructs.MAGIC, s.get(JAVA_INT, 4));
      assertEquals(NcclEpStructs.API_VERSION, s.get(JAVA_INT, 8));
      assertEquals(EpAlgorithm.LOW_LATENCY.code(), s.get(JAVA_INT, 12));
      assertEquals(2, s.get(JAVA_INT, NcclEpStructs.offset(NcclEpStructs.GROUP_CONFIG, "num_experts")));
      assertEquals(12, s.get(JAVA_INT, NcclEpStructs.offset(NcclEpStructs.GROUP_CONFIG, "max_token_bytes")));
      // Everything else as NCCL_EP_GROUP_CONFIG_INIT leaves it: zero.
      for (String field : new String[] {"max_recv_tokens_per_rank", "num_qp_per_rank", "num_channels", "max_num_sms",
          "enable_mask", "zero_copy", "overflow_policy", "num_topk"}) {
        assertEquals(0, s.get(JAVA_INT, NcclEpStructs.offset(NcclEpStructs.GROUP_CONFIG, field)), field);
      }
      assertEquals(0, s.get(JAVA_LONG, NcclEpStructs.offset(NcclEpStructs.GROUP_CONFIG, "timeout_ns")));
    }
  }

  @Test
  void highThroughputRulesOfTheHeaderAreCheckedTogether() {
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> NcclEpGroupConfig.builder().algorithm(EpAlgorithm.HIGH_THROUGHPUT).numExperts(4)
            .maxDispatchTokensPerRank(8).maxRecvTokensPerRank(4).maxTokenBytes(12).build());
    assertEquals("ncclEpGroupConfig_t: max_token_bytes 12 is not a multiple of 16, which high throughput needs;"
        + " max_recv_tokens_per_rank 4 is below max_dispatch_tokens_per_rank 8 (0 selects eager mode)",
        refused.getMessage());
    assertThrows(IllegalArgumentException.class, () -> NcclEpGroupConfig.builder()
        .algorithm(EpAlgorithm.HIGH_THROUGHPUT).numExperts(4).maxDispatchTokensPerRank(8).maxTokenBytes(16)
        .overflowPolicy(NcclEpGroupConfig.OverflowPolicy.DROP).build());
  }

  @Test
  void teGroupConfigRequiresTheTokenTypeAndAppliesTesRules() {
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> TeEpGroupConfig.builder().epSize(2).numExperts(3).maxTokensPerRank(8).hiddenDim(4).build());
    assertEquals("NVTEEpGroupConfig: max_token_dtype is required (TE has no default; a zeroed field would mean BYTE);"
        + " num_experts (3) must be divisible by ep_size (2)", refused.getMessage());
    IllegalArgumentException narrow = assertThrows(IllegalArgumentException.class,
        () -> TeEpGroupConfig.builder().epSize(1).numExperts(2).maxTokensPerRank(8).hiddenDim(4)
            .maxTokenDtype(TeDataType.BFLOAT16).build());
    assertEquals("NVTEEpGroupConfig: hidden_dim * sizeof(max_token_dtype) must be >= 16 (NCCL EP 16B row"
        + " alignment); got hidden_dim=4, element_bytes=2", narrow.getMessage());
    TeEpGroupConfig config = TeEpGroupConfig.builder().epSize(1).numExperts(2).maxTokensPerRank(8).hiddenDim(8)
        .maxTokenDtype(TeDataType.BFLOAT16).numTopk(1).build();
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment s = config.allocate(arena);
      assertEquals(48, s.get(JAVA_LONG, 0));
      assertEquals(6, s.get(JAVA_INT, NcclEpStructs.offset(TeStructs.EP_GROUP_CONFIG, "max_token_dtype")));
      assertEquals(1, s.get(JAVA_INT, NcclEpStructs.offset(TeStructs.EP_GROUP_CONFIG, "num_topk")));
    }
    assertThrows(IllegalArgumentException.class, () -> new TeEpLayerConfig(0, 0));
    IllegalArgumentException alignment = assertThrows(IllegalArgumentException.class, () -> new TeEpLayerConfig(1, 3));
    assertEquals("NVTEEpLayerConfig: dispatch_output_per_expert_alignment must be 0, 1 or a power of two, got 3",
        alignment.getMessage());
    assertEquals(16, NcclEpHandleConfig.perExpertAlignment(16).dispatchOutputPerExpertAlignment());
  }

  @Test
  void enumsCarryTheCValues() {
    assertEquals(7, NcclDataType.FLOAT32.code());
    assertEquals(NcclDataType.BFLOAT16, NcclDataType.of(9));
    assertEquals(3, EpLayout.FLAT.code());
    assertEquals(1, EpAlgorithm.HIGH_THROUGHPUT.code());
    assertEquals(10, TeDataType.FLOAT4_E2M1.code());
    assertThrows(IllegalArgumentException.class, () -> NcclDataType.of(12));
  }

  /** The binding tables against the headers the stand-ins are built from: every function declared, same arity. */
  @Test
  void theBindingTablesMatchTheHeaders() throws Exception {
    Map<String, Integer> ep = declarations(StandIns.ncclEpHome().resolve("include/nccl_ep.h"));
    for (NcclEpFunction f : NcclEpFunction.values()) {
      assertEquals(ep.get(f.symbol), f.descriptor.argumentLayouts().size(), f.symbol + " in nccl_ep.h");
    }
    assertEquals(new TreeSet<>(ep.keySet().stream().filter(n -> n.startsWith("ncclEp")).toList()),
        new TreeSet<>(Stream.of(NcclEpFunction.values()).map(f -> f.symbol).toList()));
    Map<String, Integer> te = new HashMap<>();
    Path include = Path.of(System.getProperty("te.nativeSources"), "te-include/transformer_engine");
    for (String header : new String[] {"ep.h", "transformer_engine.h"}) {
      te.putAll(declarations(include.resolve(header)));
    }
    for (TeFunction f : TeFunction.values()) {
      assertEquals(te.get(f.symbol), f.descriptor.argumentLayouts().size(), f.symbol + " in TE's headers");
    }
  }

  /** Each function a C header declares, with its number of parameters ({@code (void)} is none). */
  private static Map<String, Integer> declarations(Path header) throws Exception {
    String text = Files.readString(header).replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\n]*", " ");
    Map<String, Integer> found = new HashMap<>();
    Matcher m = Pattern.compile("\\b(\\w+)\\s*\\(([^;{}()]*)\\)\\s*;").matcher(text);
    while (m.find()) {
      String params = m.group(2).strip();
      found.put(m.group(1), params.isEmpty() || params.equals("void") ? 0 : params.split(",").length);
    }
    return found;
  }

  /** NCCL EP of a default-layout stand-in wheel_lib laid out under {@code temp}, in this (fresh) JVM. */
  private static NcclEp loadNcclEp(Path temp) throws Exception {
    return TeRuntime.builder().wheelLib(Bundles.defaultLayout(temp.resolve("wheel_lib"))).ncclLibrary(Bundles.NCCL)
        .build().loadNcclEp();
  }

  @Test
  void ownersFreeOnceAndRefuseUseAfterClose() throws Exception {
    FreshJvm.run(getClass(), "owners", temp);
  }

  static void owners(Path temp) throws Exception {
    NcclEp ep = loadNcclEp(temp);
    Nccl nccl = ep.nccl();
    NcclEpGroupConfig config = NcclEpGroupConfig.builder().algorithm(EpAlgorithm.HIGH_THROUGHPUT).numExperts(4)
        .maxDispatchTokensPerRank(2).maxRecvTokensPerRank(2).maxTokenBytes(16).numTopk(1).enableMask(true).build();
    try (NcclComm comm = nccl.commInitRank(1, nccl.uniqueId(), 0); Arena arena = Arena.ofConfined()) {
      EpGroup group = ep.createGroup(comm, config);
      assertEquals(0, group.asyncError());
      long size = group.handleMemSize(EpLayout.EXPERT_MAJOR, NcclEpHandleConfig.DEFAULT, 1);
      assertTrue(size > 0, "handle memory of " + size + " bytes");
      EpTensor memory = ep.allocateTensor(NcclDataType.FLOAT32, 2, 4);
      assertEquals(2, memory.segment().get(JAVA_INT, NcclEpStructs.offset(NcclEpStructs.TENSOR, "ndim")));
      assertEquals(NcclDataType.FLOAT32.code(),
          memory.segment().get(JAVA_INT, NcclEpStructs.offset(NcclEpStructs.TENSOR, "datatype")));
      assertArrayEquals(new long[] {2, 4}, memory.sizes());
      EpTensor handleMem = ep.tensor(NcclDataType.UINT8, arena.allocate(size, 256), size);
      EpHandle handle = group.initHandle(EpLayout.EXPERT_MAJOR, NcclEpHandleConfig.DEFAULT, 1, handleMem);
      MemorySegment routes = arena.allocateFrom(JAVA_LONG, 1, 0);
      handle.update(ep.tensor(NcclDataType.INT64, routes, 2, 1), NcclEpLayoutInfo.NONE, MemorySegment.NULL);
      // The group destroys its open handle first, then itself; each once.
      group.close();
      assertTrue(handle.isClosed());
      group.close();
      handle.close();
      IllegalStateException afterClose = assertThrows(IllegalStateException.class, group::asyncError);
      assertEquals("the NCCL EP group was destroyed (ncclEpGroupDestroy)", afterClose.getMessage());
      assertThrows(IllegalStateException.class, handle::segment);
      assertFalse(memory.isClosed());
      memory.close();
      memory.close();
      assertThrows(IllegalStateException.class, memory::segment);
      handleMem.close();
      assertThrows(IllegalStateException.class, handleMem::segment);
    }
  }

  @Test
  void rankMasksAreQueriedUpdatedAndCleanedThroughTheGroupAndRefusedWithoutEnableMask() throws Exception {
    FreshJvm.run(getClass(), "masks", temp);
  }

  /** One rank, low latency: the mask NCCL EP reports follows each update and clean; wrong shapes never reach it. */
  static void masks(Path temp) throws Exception {
    NcclEp ep = loadNcclEp(temp);
    Nccl nccl = ep.nccl();
    NcclEpGroupConfig.Builder config = NcclEpGroupConfig.builder().numExperts(2).maxDispatchTokensPerRank(2)
        .maxTokenBytes(16);
    try (NcclComm comm = nccl.commInitRank(1, nccl.uniqueId(), 0); Arena arena = Arena.ofConfined();
        EpGroup group = ep.createGroup(comm, config.enableMask(true).build());
        EpTensor status = ep.tensor(NcclDataType.INT32, arena.allocate(4), 1)) {
      group.maskQuery(status, MemorySegment.NULL);
      assertArrayEquals(new int[] {1}, status.data().toArray(JAVA_INT), "every rank active at creation");
      group.maskUpdate(new int[] {0}, MemorySegment.NULL);
      group.maskQuery(status, MemorySegment.NULL);
      assertArrayEquals(new int[] {0}, status.data().toArray(JAVA_INT), "the mask just set");
      // the clean needs a low-latency handle (nccl_ep.h: it resets that algorithm's buffers)
      long size = group.handleMemSize(EpLayout.EXPERT_MAJOR, NcclEpHandleConfig.DEFAULT, 1);
      group.initHandle(EpLayout.EXPERT_MAJOR, NcclEpHandleConfig.DEFAULT, 1,
          ep.tensor(NcclDataType.UINT8, arena.allocate(size, 256), size));
      group.maskClean(MemorySegment.NULL);
      group.maskQuery(status, MemorySegment.NULL);
      assertArrayEquals(new int[] {1}, status.data().toArray(JAVA_INT), "every rank active after the clean");
      assertEquals(0, group.asyncError());

      IllegalArgumentException twoRanks = assertThrows(IllegalArgumentException.class,
          () -> group.maskUpdate(new int[] {1, 1}, MemorySegment.NULL));
      assertEquals("ncclEpMaskUpdate refused before the native call: the mask is [1, 1]; it must hold 1 values (one"
          + " per rank), each 1 (active) or 0 (masked)", twoRanks.getMessage());
      assertThrows(IllegalArgumentException.class, () -> group.maskUpdate(new int[] {2}, MemorySegment.NULL));
      try (EpTensor floats = ep.tensor(NcclDataType.FLOAT32, arena.allocate(4), 1)) {
        IllegalArgumentException wrongType = assertThrows(IllegalArgumentException.class,
            () -> group.maskQuery(floats, MemorySegment.NULL));
        assertEquals("ncclEpMaskQuery refused before the native call: mask_status is FLOAT32 [1]; it must be INT32 [1]"
            + " (one int per rank)", wrongType.getMessage());
      }
      try (EpGroup unmasked = ep.createGroup(comm, config.enableMask(false).build())) {
        IllegalArgumentException noMask = assertThrows(IllegalArgumentException.class,
            () -> unmasked.maskClean(MemorySegment.NULL));
        assertEquals("ncclEpMaskClean refused before the native call: the group was made without enableMask, which"
            + " rank masking needs", noMask.getMessage());
        assertThrows(IllegalArgumentException.class, () -> unmasked.maskQuery(status, MemorySegment.NULL));
        assertThrows(IllegalArgumentException.class, () -> unmasked.maskUpdate(new int[] {1}, MemorySegment.NULL));
      }
    }
  }

  @Test
  void typedCallsMoveTokensThroughNcclEpAndRefuseWhatTheHeaderForbids() throws Exception {
    FreshJvm.run(getClass(), "typedCalls", temp);
  }

  /**
   * High throughput, expert-major, one rank, four experts, top-2 (TeEpSequenceTest's routing), through the typed
   * calls alone: the counters, the received rows and the combined sums prove the structs reached NCCL EP as built.
   */
  static void typedCalls(Path temp) throws Exception {
    final int tokens = TeEpSequenceTest.TOKENS;
    final int hidden = TeEpSequenceTest.HIDDEN;
    final int experts = TeEpSequenceTest.EXPERTS;
    final int topK = TeEpSequenceTest.TOP_K;
    final long[][] routes = TeEpSequenceTest.ROUTES;
    final int slots = tokens * topK;
    NcclEp ep = loadNcclEp(temp);
    Nccl nccl = ep.nccl();
    NcclEpGroupConfig config = NcclEpGroupConfig.builder().algorithm(EpAlgorithm.HIGH_THROUGHPUT).numExperts(experts)
        .maxDispatchTokensPerRank(tokens).maxRecvTokensPerRank(slots).maxTokenBytes(hidden * 4).numTopk(topK).build();
    try (NcclComm comm = nccl.commInitRank(1, nccl.uniqueId(), 0); Arena arena = Arena.ofConfined();
        EpGroup group = ep.createGroup(comm, config)) {
      MemorySegment x = arena.allocate(JAVA_FLOAT, (long) tokens * hidden);
      MemorySegment ids = arena.allocate(JAVA_LONG, slots);
      MemorySegment weights = arena.allocate(JAVA_FLOAT, slots);
      for (int t = 0; t < tokens; t++) {
        for (int h = 0; h < hidden; h++) {
          x.setAtIndex(JAVA_FLOAT, (long) t * hidden + h, 10 * t + h);
        }
        for (int c = 0; c < topK; c++) {
          ids.setAtIndex(JAVA_LONG, (long) t * topK + c, routes[t][c]);
          weights.setAtIndex(JAVA_FLOAT, (long) t * topK + c, 0.25f * (c + 1));
        }
      }
      MemorySegment perExpert = arena.allocate(JAVA_INT, experts);
      MemorySegment total = arena.allocate(JAVA_INT, 1);
      MemorySegment received = arena.allocate(JAVA_FLOAT, (long) slots * hidden);
      MemorySegment receivedWeights = arena.allocate(JAVA_FLOAT, slots);
      MemorySegment expertOut = arena.allocate(JAVA_FLOAT, (long) slots * hidden);
      MemorySegment result = arena.allocate(JAVA_FLOAT, (long) tokens * hidden);
      try (EpTensor xT = ep.tensor(NcclDataType.FLOAT32, x, tokens, hidden);
          EpTensor idsT = ep.tensor(NcclDataType.INT64, ids, tokens, topK);
          EpTensor weightsT = ep.tensor(NcclDataType.FLOAT32, weights, tokens, topK);
          EpTensor perExpertT = ep.tensor(NcclDataType.INT32, perExpert, experts);
          EpTensor totalT = ep.tensor(NcclDataType.INT32, total, 1);
          EpTensor receivedT = ep.tensor(NcclDataType.FLOAT32, received, slots, hidden);
          EpTensor receivedWeightsT = ep.tensor(NcclDataType.FLOAT32, receivedWeights, slots);
          EpTensor expertOutT = ep.tensor(NcclDataType.FLOAT32, expertOut, slots, hidden);
          EpTensor resultT = ep.tensor(NcclDataType.FLOAT32, result, tokens, hidden)) {
        assertEquals(x.address(), xT.data().address());
        assertEquals((long) tokens * hidden * 4, xT.data().byteSize());
        NcclEpLayoutInfo info =
            new NcclEpLayoutInfo(perExpertT, null, null, totalT, NcclEpLayoutInfo.ExpertIdKind.AUTO);
        EpHandle handle = group.createHandle(EpLayout.EXPERT_MAJOR, idsT, info, NcclEpHandleConfig.DEFAULT,
            MemorySegment.NULL);
        assertArrayEquals(new int[] {2, 2, 2, 2}, perExpert.toArray(JAVA_INT), "tokens routed to each expert");
        assertEquals(slots, total.get(JAVA_INT, 0));

        NcclEpDispatchInputs in = new NcclEpDispatchInputs(xT, weightsT, null);
        NcclEpDispatchOutputs out = new NcclEpDispatchOutputs(receivedT, receivedWeightsT, null, null);
        // The struct as NCCL_EP_DISPATCH_INPUTS_INIT and the record wrote it: size, magic, the tensors' pointers.
        assertEquals(32, in.segment().get(JAVA_INT, 0));
        assertEquals(NcclEpStructs.MAGIC, in.segment().get(JAVA_INT, 4));
        assertEquals(xT.segment().address(), in.segment().get(ADDRESS, 8).address());
        assertEquals(weightsT.segment().address(), in.segment().get(ADDRESS, 16).address());
        assertEquals(0, in.segment().get(ADDRESS, 24).address(), "no scales: NULL");
        handle.dispatch(in, out, NcclEpLayoutInfo.NONE, NcclEpDispatchConfig.DEFAULT, MemorySegment.NULL);
        // Expert-major: expert 0's tokens (0, 3), then expert 1's (0, 2), expert 2's (1, 2), expert 3's (1, 3).
        int[] slotToken = {0, 3, 0, 2, 1, 2, 1, 3};
        int[] slotExpert = {0, 0, 1, 1, 2, 2, 3, 3};
        for (int slot = 0; slot < slots; slot++) {
          for (int h = 0; h < hidden; h++) {
            long at = (long) slot * hidden + h;
            assertEquals(10f * slotToken[slot] + h, received.getAtIndex(JAVA_FLOAT, at), "slot " + slot + " col " + h);
            expertOut.setAtIndex(JAVA_FLOAT, at, received.getAtIndex(JAVA_FLOAT, at) * (slotExpert[slot] + 1));
          }
          int choice = routes[slotToken[slot]][0] == slotExpert[slot] ? 0 : 1;
          assertEquals(0.25f * (choice + 1), receivedWeights.getAtIndex(JAVA_FLOAT, slot), "weight of slot " + slot);
        }

        NcclEpCombineInputs combineIn = new NcclEpCombineInputs(expertOutT, null, null);
        handle.combine(combineIn, new NcclEpCombineOutputs(resultT, null), NcclEpCombineConfig.DEFAULT,
            MemorySegment.NULL);
        for (int t = 0; t < tokens; t++) {
          float factor = routes[t][0] + 1 + routes[t][1] + 1;
          for (int h = 0; h < hidden; h++) {
            assertEquals(factor * (10f * t + h), result.getAtIndex(JAVA_FLOAT, (long) t * hidden + h),
                "token " + t + " column " + h);
          }
        }

        // What the header forbids is refused in Java, every problem at once, and the handle stays usable.
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> handle.dispatch(
            new NcclEpDispatchInputs(xT, null, null), out, info,
            NcclEpDispatchConfig.of(EpPassDirection.FWD, NcclEpDispatchConfig.Quant.NONE,
                NcclEpDispatchConfig.Flag.SEND_ONLY), MemorySegment.NULL));
        assertEquals("ncclEpDispatch refused before the native call: high throughput takes no layout_info (its"
            + " counters come from the handle update); high throughput's forward pass needs inputs topk_weights;"
            + " send_only is for low latency only", refused.getMessage());
        IllegalArgumentException backward = assertThrows(IllegalArgumentException.class, () -> handle.combine(
            combineIn, new NcclEpCombineOutputs(resultT, null),
            NcclEpCombineConfig.of(EpPassDirection.BWD, NcclEpCombineConfig.Quant.NONE), MemorySegment.NULL));
        assertEquals("ncclEpCombine refused before the native call: the backward pass needs inputs and outputs"
            + " topk_weights", backward.getMessage());
        // Each struct is its own record of exactly its members (combine outputs have no scales, nor topk_idx): combine
        // inputs cannot even be cast to where dispatch inputs go.
        assertThrows(ClassCastException.class, () -> handle.dispatch((NcclEpDispatchInputs) (Object) combineIn, out,
            NcclEpLayoutInfo.NONE, NcclEpDispatchConfig.DEFAULT, MemorySegment.NULL));
        IllegalArgumentException complete = assertThrows(IllegalArgumentException.class,
            () -> handle.complete(MemorySegment.NULL));
        assertTrue(complete.getMessage().startsWith("ncclEpComplete refused before the native call"),
            complete.getMessage());
        handle.dispatch(in, out, NcclEpLayoutInfo.NONE, NcclEpDispatchConfig.DEFAULT, MemorySegment.NULL);
        assertEquals(10f * 3, received.getAtIndex(JAVA_FLOAT, hidden), "slot 1 holds token 3 again");

        // A struct pointing at a closed tensor is refused, not passed to C with a freed pointer.
        weightsT.close();
        IllegalStateException closed = assertThrows(IllegalStateException.class, () -> handle.dispatch(in, out,
            NcclEpLayoutInfo.NONE, NcclEpDispatchConfig.DEFAULT, MemorySegment.NULL));
        assertEquals("the NCCL EP tensor was destroyed (ncclEpTensorDestroy)", closed.getMessage());
      }
    }
  }

  @Test
  void perCallStructsNameWhatIsMissingAndWriteTheInitializersValues() {
    IllegalArgumentException noTokens = assertThrows(IllegalArgumentException.class,
        () -> new NcclEpDispatchInputs(null, null, null));
    assertEquals("ncclEpDispatchInputs_t: tokens is required", noTokens.getMessage());
    assertEquals("ncclEpCombineOutputs_t: tokens is required",
        assertThrows(IllegalArgumentException.class, () -> new NcclEpCombineOutputs(null, null)).getMessage());
    IllegalArgumentException rounding = assertThrows(IllegalArgumentException.class, () -> NcclEpDispatchConfig
        .of(EpPassDirection.FWD, NcclEpDispatchConfig.Quant.FWD, NcclEpDispatchConfig.Flag.ROUND_SCALES));
    assertEquals("ncclEpDispatchConfig_t: round_scales must be zero when QUANT_FWD forwards the scales",
        rounding.getMessage());

    MemorySegment dispatch = NcclEpDispatchConfig.of(EpPassDirection.BWD, NcclEpDispatchConfig.Quant.DS_FP8E3M4,
        NcclEpDispatchConfig.Flag.SEND_ONLY).segment();
    assertEquals(24, dispatch.get(JAVA_INT, 0));
    assertEquals(NcclEpStructs.MAGIC, dispatch.get(JAVA_INT, 4));
    assertArrayEquals(new int[] {1, 0, 1 /* NCCL_EP_BWD_PASS */, 2}, dispatch.asSlice(8).toArray(JAVA_INT));
    MemorySegment combine = NcclEpCombineConfig.DEFAULT.segment();
    assertArrayEquals(new int[] {20, NcclEpStructs.MAGIC, 0, 0, 0}, combine.toArray(JAVA_INT), "the initializer's");
    MemorySegment info = new NcclEpLayoutInfo(null, null, null, null, NcclEpLayoutInfo.ExpertIdKind.GLOBAL).segment();
    assertEquals(48, info.get(JAVA_INT, 0));
    assertEquals(2, info.get(JAVA_INT, NcclEpStructs.offset(NcclEpStructs.LAYOUT_INFO, "recv_topk_idx_kind")));
    assertEquals(MemorySegment.NULL, NcclEpLayoutInfo.NONE.segment());
    // Made once per value: equal configs are one object, whose struct is written.
    assertTrue(NcclEpHandleConfig.perExpertAlignment(16) == NcclEpHandleConfig.perExpertAlignment(16));
    assertEquals(NcclEpHandleConfig.DEFAULT, NcclEpHandleConfig.perExpertAlignment(0));
    assertEquals(new TeEpLayerConfig(2, 8), new TeEpLayerConfig(2, 8));
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment handle = NcclEpHandleConfig.perExpertAlignment(16).allocate(arena);
      assertEquals(16, handle.get(JAVA_INT, 0));
      assertEquals(NcclEpStructs.MAGIC, handle.get(JAVA_INT, 4));
      assertEquals(16, handle.get(JAVA_LONG, 8));
    }
  }
}
