package dev.tewheel.core.headers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.standins.StandIns;
import dev.tewheel.standins.StandIns.Defect;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class IncludeGraphTest {
  @Test
  void theStandInTreeIsSelfContained() throws IOException {
    IncludeGraph graph = IncludeGraph.of(read(StandIns.ncclEpHome().resolve("include")), IncludeSearchPath.ncclEpJit());
    assertEquals(List.of(), graph.unresolved());
    // The JIT's search order: the device folder resolves "common.hpp" through include/nccl_ep.
    assertTrue(graph.edges().get("nccl_ep/device/scan_kernel.cuh").contains("nccl_ep/common.hpp"));
    assertTrue(graph.edges().get("nccl_ep/device/ht_ep.cuh").contains("nccl_ep.h"));
    assertEquals(List.of("nccl_ep/ep_enums.h"), graph.edges().get("nccl_ep.h"));
  }

  @Test
  void aMissingHeaderIsReportedWithTheChainThatLedToIt() throws IOException {
    Path include = StandIns.defect(Defect.INCLUDE_MISSING_HEADER);
    IncludeGraph graph = IncludeGraph.of(read(include), IncludeSearchPath.ncclEpJit());
    // Two headers include it, as in NCCL EP's tree.
    assertEquals(2, graph.unresolved().size(), graph.unresolved().toString());
    UnresolvedInclude missing = graph.unresolved().get(0);
    assertEquals("nccl_ep/device/ll_ep.cuh", missing.file());
    assertEquals("ll_ep_smem.cuh", missing.name());
    assertEquals(9, missing.line());
    assertEquals(List.of("nccl_ep/device/ll_ep.cuh"), missing.chain());
    // Its own folder first, then the JIT's -I order: include, include/nccl_ep (include/nccl_ep/device was first).
    assertEquals(List.of("nccl_ep/device/ll_ep_smem.cuh", "ll_ep_smem.cuh", "nccl_ep/ll_ep_smem.cuh"),
        missing.tried());
    assertEquals("nccl_ep/device/ll_ep_adapter.cuh", graph.unresolved().get(1).file());
    assertEquals(11, graph.unresolved().get(1).line());
  }

  @Test
  void externalHeadersAreAcceptedOnlyWhenDeclared() {
    Map<String, String> tree = Map.of("a.h", "#include \"nccl.h\"\n  #  include \"mylib/extra.h\" // note\n");
    IncludeGraph defaults = IncludeGraph.of(tree, IncludeSearchPath.ncclEpJit());
    assertEquals(List.of("mylib/extra.h"), defaults.unresolved().stream().map(UnresolvedInclude::name).toList());
    IncludeGraph declared = IncludeGraph.of(tree, IncludeSearchPath.ncclEpJit().withExternalHeaders(Set.of("extra.h")));
    assertEquals(List.of(), declared.unresolved());
  }

  @Test
  void relativeIncludesAreNormalizedAndCyclesTerminate() {
    Map<String, String> tree = Map.of(
        "nccl_ep/device/x.cuh", "#include \"../common.hpp\"\n#include \"y.cuh\"\n",
        "nccl_ep/device/y.cuh", "#include \"x.cuh\"\n#include \"../../../escape.h\"\n",
        "nccl_ep/common.hpp", "");
    IncludeGraph graph = IncludeGraph.of(tree, IncludeSearchPath.ncclEpJit());
    assertEquals(List.of("nccl_ep/common.hpp", "nccl_ep/device/y.cuh"), graph.edges().get("nccl_ep/device/x.cuh"));
    UnresolvedInclude escape = graph.unresolved().get(0);
    assertEquals("../../../escape.h", escape.name());
    assertEquals(List.of("nccl_ep/device/x.cuh", "nccl_ep/device/y.cuh"), escape.chain());
  }

  /**
   * A tree 10,000 headers deep, each also including one that exists nowhere, once made 10,000 chains of up to 10,000
   * names (quadratic: out of memory at 256 MiB); each chain now names its first and last headers and its depth.
   */
  @Test
  @org.junit.jupiter.api.Timeout(60)
  void aChainTenThousandHeadersDeepIsNamedByItsEndsNotWhole() {
    int depth = 10_000;
    Map<String, String> tree = new TreeMap<>();
    for (int i = 0; i < depth; i++) {
      tree.put("nccl_ep/chain/c" + i + ".h", "#include \"c" + (i + 1) + ".h\"\n#include \"gone" + i + ".h\"\n");
    }
    tree.put("nccl_ep/chain/c" + depth + ".h", "");
    List<UnresolvedInclude> missing = IncludeGraph.of(tree, IncludeSearchPath.ncclEpJit()).unresolved();
    assertEquals(depth, missing.size());
    assertTrue(missing.stream().allMatch(m -> m.chain().size() <= UnresolvedInclude.HEAD + UnresolvedInclude.TAIL),
        "no chain lists more than its ends");
    UnresolvedInclude deepest = missing.stream().filter(m -> m.name().equals("gone9999.h")).findFirst().orElseThrow();
    assertEquals(depth, deepest.depth());
    assertEquals("nccl_ep/chain/c0.h -> nccl_ep/chain/c1.h -> nccl_ep/chain/c2.h -> … (9,993 more) … ->"
        + " nccl_ep/chain/c9996.h -> nccl_ep/chain/c9997.h -> nccl_ep/chain/c9998.h -> nccl_ep/chain/c9999.h",
        deepest.describeChain());
    UnresolvedInclude shallow = missing.stream().filter(m -> m.name().equals("gone6.h")).findFirst().orElseThrow();
    assertEquals(7, shallow.chain().size());
    assertEquals(shallow.depth(), shallow.chain().size(), "a chain of 7 is listed whole");
    assertEquals("nccl_ep/chain/c6.h", shallow.chain().get(6));
  }

  @Test
  void theSearchPathIsConfigurable() {
    Map<String, String> tree = Map.of("a/b/x.h", "#include \"y.h\"\n", "c/y.h", "");
    assertEquals(1, IncludeGraph.of(tree, IncludeSearchPath.ncclEpJit()).unresolved().size());
    IncludeGraph graph = IncludeGraph.of(tree, IncludeSearchPath.ncclEpJit().withFolders(List.of("/c/")));
    assertEquals(List.of(), graph.unresolved());
    assertEquals(List.of("c/y.h"), graph.edges().get("a/b/x.h"));
  }

  static Map<String, String> read(Path root) throws IOException {
    Map<String, String> headers = new TreeMap<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().startsWith("."))
          .toList()) {
        headers.put(root.relativize(file).toString(), Files.readString(file));
      }
    }
    return headers;
  }
}
