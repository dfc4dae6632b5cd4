package dev.tewheel.runtime;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    assertThrows(IllegalArgumentException.class, () -> TeEpLayerConfig.of(0, 0));
    IllegalArgumentException alignment = assertThrows(IllegalArgumentException.class, () -> TeEpLayerConfig.of(1, 3));
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
    for (NcclEp.Function f : NcclEp.Function.values()) {
      assertEquals(ep.get(f.symbol), f.descriptor.argumentLayouts().size(), f.symbol + " in nccl_ep.h");
    }
    assertEquals(new TreeSet<>(ep.keySet().stream().filter(n -> n.startsWith("ncclEp")).toList()),
        new TreeSet<>(Stream.of(NcclEp.Function.values()).map(f -> f.symbol).toList()));
    Map<String, Integer> te = new HashMap<>();
    Path include = Path.of(System.getProperty("te.nativeSources"), "te-include/transformer_engine");
    for (String header : new String[] {"ep.h", "transformer_engine.h"}) {
      te.putAll(declarations(include.resolve(header)));
    }
    for (TransformerEngine.Function f : TransformerEngine.Function.values()) {
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

  @Test
  void ownersFreeOnceAndRefuseUseAfterClose() throws Exception {
    FreshJvm.run(getClass(), "owners", temp);
  }

  static void owners(Path temp) throws Exception {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    NcclEp ep = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build().loadNcclEp();
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
      MemorySegment handleMem = NcclEpStructs.tensor(arena, NcclDataType.UINT8.code(), arena.allocate(size, 256),
          size);
      EpHandle handle = group.initHandle(EpLayout.EXPERT_MAJOR, NcclEpHandleConfig.DEFAULT, 1, handleMem);
      MemorySegment routes = arena.allocateFrom(JAVA_LONG, 1, 0);
      ep.updateHandle(handle.segment(), NcclEpStructs.tensor(arena, NcclDataType.INT64.code(), routes, 2, 1),
          MemorySegment.NULL, MemorySegment.NULL);
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
    }
  }
}
