package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.internal.ffm.NcclFunction;
import dev.tewheel.runtime.nccl.Nccl;
import dev.tewheel.runtime.ncclep.NcclEpStructs;
import dev.tewheel.runtime.te.TeStructs;
import dev.tewheel.standins.StandIns;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.StructLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java struct layout against the C headers it mirrors: a probe generated from the layouts prints
 * {@code sizeof} and every member's {@code offsetof} and size, compiled by the real g++ against the stand-in
 * headers (whose declarations follow nccl_ep.h and TE's ep.h field for field) and compared with the layouts.
 */
class StructLayoutProbeTest {
  static final List<StructLayout> LAYOUTS = List.of(NcclEpStructs.TENSOR, NcclEpStructs.TENSOR_ALLOC_CONFIG,
      NcclEpStructs.ALLOC_CONFIG, NcclEpStructs.GROUP_CONFIG, NcclEpStructs.LAYOUT_INFO,
      NcclEpStructs.DISPATCH_INPUTS, NcclEpStructs.DISPATCH_OUTPUTS, NcclEpStructs.COMBINE_INPUTS,
      NcclEpStructs.COMBINE_OUTPUTS, NcclEpStructs.HANDLE_CONFIG, NcclEpStructs.DISPATCH_CONFIG,
      NcclEpStructs.COMBINE_CONFIG, NcclEpStructs.COMPLETE_CONFIG, TeStructs.EP_GROUP_CONFIG,
      TeStructs.EP_LAYER_CONFIG, TeStructs.COMM_WINDOW, TeStructs.SHAPE, TeStructs.BASIC_TENSOR, NcclFunction.UNIQUE_ID);

  @TempDir Path temp;

  @Test
  void everySizeAndOffsetEqualsTheHeaders() throws Exception {
    Map<String, Long> expected = new LinkedHashMap<>();
    StringBuilder probe = new StringBuilder("""
        #include <stddef.h>
        #include <stdio.h>
        #include <nccl.h>
        #include "nccl_ep.h"
        #include <transformer_engine/ep.h>
        #include <transformer_engine/transformer_engine.h>
        #define FIELD(T, f) printf("%s.%s %zu %zu\\n", #T, #f, offsetof(T, f), sizeof(((T *)0)->f))
        int main(void) {
        """);
    for (StructLayout layout : LAYOUTS) {
      String type = layout.name().orElseThrow();
      probe.append("  printf(\"%s %zu\\n\", \"").append(type).append("\", sizeof(").append(type).append("));\n");
      expected.put(type, layout.byteSize());
      for (MemoryLayout member : layout.memberLayouts()) {
        if (member.name().isEmpty()) {
          continue; // padding
        }
        String field = member.name().get();
        probe.append("  FIELD(").append(type).append(", ").append(field).append(");\n");
        expected.put(type + "." + field + " " + layout.byteOffset(PathElement.groupElement(field)), member.byteSize());
      }
    }
    probe.append("  return 0;\n}\n");
    Path source = Files.writeString(temp.resolve("probe.cpp"), probe);
    Path binary = temp.resolve("probe");
    List<String> compile = new ArrayList<>(List.of("g++", "-std=c++17", "-Wall", "-Werror", "-o", binary.toString(),
        source.toString()));
    for (Path include : includes()) {
      compile.add("-I" + include);
    }
    assertEquals("", run(compile), "the probe compiles against the stand-in headers");
    String output = run(List.of(binary.toString()));

    Map<String, Long> actual = new LinkedHashMap<>();
    for (String line : output.strip().split("\n")) {
      String[] parts = line.split(" ");
      if (parts.length == 2) {
        actual.put(parts[0], Long.parseLong(parts[1]));
      } else {
        actual.put(parts[0] + " " + parts[1], Long.parseLong(parts[2]));
      }
    }
    assertEquals(expected, actual, "sizeof / offsetof / member size, Java layout vs C header");
    assertTrue(actual.size() > 90, "every member was probed: " + actual.size());
  }

  /** NCCL EP's and NCCL's installed headers, and the build-only CUDA and TE declarations of src/native. */
  private static List<Path> includes() {
    String sources = System.getProperty("te.nativeSources");
    if (sources == null || !Files.isDirectory(Path.of(sources, "te-include"))) {
      throw new IllegalStateException("system property te.nativeSources must name src/native (runtime/pom.xml sets"
          + " it), found " + sources);
    }
    return List.of(StandIns.ncclEpHome().resolve("include"), StandIns.ncclHome().resolve("include"),
        Path.of(sources, "sysinclude"), Path.of(sources, "te-include"));
  }

  private static String run(List<String> command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(command.get(0) + " did not finish");
    }
    if (process.exitValue() != 0) {
      throw new AssertionError(String.join(" ", command) + " failed (" + process.exitValue() + "):\n" + output);
    }
    return command.get(0).equals("g++") ? output.strip() : output;
  }
}
