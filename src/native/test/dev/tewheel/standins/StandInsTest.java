package dev.tewheel.standins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.standins.StandIns.Defect;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The stand-ins are what their documentation says, as binutils' readelf sees them. */
class StandInsTest {
  private static final Pattern NEEDED = Pattern.compile("\\(NEEDED\\)\\s+Shared library: \\[([^]]+)]");

  @Test
  void transformerEngineIsBoundNowAndDoesNotNeedNcclEp() throws Exception {
    String dynamic = readelf("-dW", StandIns.transformerEngine());
    assertTrue(dynamic.contains("Library soname: [libtransformer_engine.so]"), dynamic);
    assertTrue(dynamic.contains("BIND_NOW"), dynamic);
    assertEquals(List.of("libc.so.6"), needed(dynamic));
  }

  @Test
  void ncclEpLibIsLaidOutAsItsBuildWritesIt() throws Exception {
    Path lib = StandIns.ncclEpHome().resolve("lib");
    assertEquals(Path.of("libnccl_ep.so.0"), Files.readSymbolicLink(lib.resolve("libnccl_ep.so")));
    assertEquals(Path.of("libnccl_ep.so.0.1.0"), Files.readSymbolicLink(lib.resolve("libnccl_ep.so.0")));
    assertFalse(Files.isSymbolicLink(StandIns.ncclEpLibrary()));

    String dynamic = readelf("-dW", StandIns.ncclEpLibrary());
    assertTrue(dynamic.contains("Library soname: [libnccl_ep.so.0]"), dynamic);
    assertEquals(List.of("libnccl.so.2", "libc.so.6"), needed(dynamic));
    assertFalse(dynamic.contains("RUNPATH") || dynamic.contains("RPATH"), dynamic);
    String symbols = readelf("--dyn-syms -W", StandIns.ncclEpLibrary());
    for (String name : List.of("ncclEpGetVersion", "ncclEpCommInit", "ncclEpDispatch", "ncclEpCombine")) {
      assertTrue(Pattern.compile("GLOBAL DEFAULT +\\d+ " + name + "$", Pattern.MULTILINE).matcher(symbols).find(),
          name + " in\n" + symbols);
    }
  }

  @Test
  void headerTreeCarriesVersionAndGeneratedAbsolutePaths() throws Exception {
    Path include = StandIns.ncclEpHome().resolve("include");
    String header = Files.readString(include.resolve("nccl_ep.h"));
    assertTrue(header.contains("#define NCCL_EP_MAJOR 0"), header);
    String config = Files.readString(include.resolve("nccl_ep/config.h"));
    assertTrue(config.contains("#define NCCL_EP_JIT_SOURCE_DIR \"" + include.resolve("nccl_ep") + "\""), config);
    for (String name : List.of("ht_ep", "ll_ep", "ll_ep_adapter", "ll_ep_smem", "device_primitives", "ht_ep_configs",
        "cuda_compat_shims", "scan_kernel", "macros")) {
      assertTrue(Files.isRegularFile(include.resolve("nccl_ep/device/" + name + ".cuh")), name);
    }
    Path broken = StandIns.defect(Defect.INCLUDE_MISSING_HEADER);
    assertFalse(Files.exists(broken.resolve("nccl_ep/device/ll_ep_smem.cuh")));
    assertTrue(Files.readString(broken.resolve("nccl_ep/device/ll_ep.cuh")).contains("#include \"ll_ep_smem.cuh\""));
  }

  @Test
  void eachDefectIsTheLinkItClaims() throws Exception {
    assertFalse(readelf("-dW", StandIns.defect(Defect.TE_LAZY_BINDING)).contains("NOW"));
    assertEquals(List.of("libnccl_ep.so.0", "libc.so.6"),
        needed(readelf("-dW", StandIns.defect(Defect.TE_NEEDS_NCCL_EP))));
    assertEquals(List.of("libcuda.so.1", "libc.so.6"), needed(readelf("-dW", StandIns.defect(Defect.TE_NEEDS_CUDA))));
    assertTrue(Pattern.compile("UND ncclEpGetVersion$", Pattern.MULTILINE)
        .matcher(readelf("--dyn-syms -W", StandIns.defect(Defect.TE_UNDEFINED_NCCL_EP_SYMBOL))).find());
    Path major1 = StandIns.defect(Defect.NCCL_EP_MAJOR_1_HOME).resolve("lib/libnccl_ep.so.1.0.0");
    assertTrue(readelf("-dW", major1).contains("Library soname: [libnccl_ep.so.1]"));
    assertTrue(readelf("-dW", StandIns.defect(Defect.NCCL_EP_ABSOLUTE_RUNPATH))
        .contains("Library runpath: [/opt/nccl/lib]"));
  }

  @Test
  void aarch64BuildsAreCommittedForMachinesWithoutACrossCompiler() throws Exception {
    for (String name : List.of("libtransformer_engine.so", "libnccl_ep.so.0.1.0", "libnccl.so.2")) {
      String header = readelf("-hW", StandIns.aarch64(name));
      assertTrue(header.contains("AArch64"), name + ": " + header);
    }
    assertTrue(readelf("-dW", StandIns.aarch64("libtransformer_engine.so")).contains("BIND_NOW"));
  }

  private static List<String> needed(String dynamic) {
    Matcher matcher = NEEDED.matcher(dynamic);
    return matcher.results().map(m -> m.group(1)).toList();
  }

  private static String readelf(String options, Path file) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("readelf"));
    command.addAll(List.of(options.split(" ")));
    command.add(file.toString());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), "readelf timed out");
    assertEquals(0, process.exitValue(), out);
    return out;
  }
}
