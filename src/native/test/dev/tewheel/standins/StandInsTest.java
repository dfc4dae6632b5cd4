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
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stand-ins are what their documentation says, as binutils' readelf sees them and as programs that run them see. */
class StandInsTest {
  private static final Pattern NEEDED = Pattern.compile("\\(NEEDED\\)\\s+Shared library: \\[([^]]+)]");
  private static final Pattern DEFINED = Pattern.compile(
      "^\\s*\\d+: [0-9a-f]+ +\\d+ FUNC +GLOBAL +DEFAULT +\\d+ (\\S+)$", Pattern.MULTILINE);
  /** The 18 functions of nccl_ep.h. */
  static final Set<String> NCCL_EP_API = Set.of("ncclEpGetVersion", "ncclEpTensorAlloc", "ncclEpTensorDestroy",
      "ncclEpCreateGroup", "ncclEpGroupDestroy", "ncclEpHandleMemSize", "ncclEpInitHandle", "ncclEpUpdateHandle",
      "ncclEpCreateHandle", "ncclEpHandleDestroy", "ncclEpDispatch", "ncclEpCombine", "ncclEpComplete",
      "ncclEpMaskQuery", "ncclEpMaskUpdate", "ncclEpMaskClean", "ncclEpGetAsyncError", "ncclEpErrorClear");
  /** ep.h's eight functions and the tensor functions of transformer_engine.h a caller needs. */
  static final Set<String> TE_API = Set.of("nvte_ep_initialize", "nvte_ep_shutdown", "nvte_ep_handle_mem_size",
      "nvte_ep_prepare", "nvte_ep_dispatch", "nvte_ep_combine", "nvte_ep_dispatch_bwd", "nvte_ep_combine_bwd",
      "nvte_create_tensor", "nvte_destroy_tensor", "nvte_set_tensor_param", "nvte_tensor_data", "nvte_tensor_shape",
      "nvte_tensor_type");
  private static final List<String> TE_NEEDED = List.of("libnccl.so.2", "libstdc++.so.6", "libgcc_s.so.1",
      "libc.so.6");

  @TempDir Path dir;

  @Test
  void transformerEngineIsBoundNowNeedsNcclAndExportsOnlyTeFunctions() throws Exception {
    String dynamic = readelf("-dW", StandIns.transformerEngine());
    assertTrue(dynamic.contains("Library soname: [libtransformer_engine.so]"), dynamic);
    assertTrue(dynamic.contains("BIND_NOW"), dynamic);
    assertFalse(dynamic.contains("RUNPATH") || dynamic.contains("RPATH"), dynamic);
    assertEquals(TE_NEEDED, needed(dynamic));
    String symbols = readelf("--dyn-syms -W", StandIns.transformerEngine());
    assertEquals(new TreeSet<>(TE_API), defined(symbols));
    for (String name : List.of("ncclGetVersion", "ncclCommCount", "ncclGetErrorString", "dlopen", "dlsym")) {
      assertTrue(Pattern.compile(" UND " + Pattern.quote(name) + "(@\\S+)?( \\(\\d+\\))?$", Pattern.MULTILINE)
          .matcher(symbols).find(),
          name);
    }
    assertFalse(symbols.contains(" UND ncclEp"), symbols);
  }

  @Test
  void ncclEpLibIsLaidOutAsItsBuildWritesIt() throws Exception {
    Path lib = StandIns.ncclEpHome().resolve("lib");
    assertEquals(Path.of("libnccl_ep.so.0"), Files.readSymbolicLink(lib.resolve("libnccl_ep.so")));
    assertEquals(Path.of("libnccl_ep.so.0.1.0"), Files.readSymbolicLink(lib.resolve("libnccl_ep.so.0")));
    assertFalse(Files.isSymbolicLink(StandIns.ncclEpLibrary()));
    assertTrue(Files.isRegularFile(lib.resolve("libnccl_ep.a")));
    assertTrue(new String(Files.readAllBytes(lib.resolve("libnccl_ep.a")), StandardCharsets.ISO_8859_1)
        .startsWith("!<arch>\n"));

    String dynamic = readelf("-dW", StandIns.ncclEpLibrary());
    assertTrue(dynamic.contains("Library soname: [libnccl_ep.so.0]"), dynamic);
    assertEquals(List.of("libnccl.so.2", "libcuda.so.1", "libc.so.6"), needed(dynamic));
    assertFalse(dynamic.contains("RUNPATH") || dynamic.contains("RPATH"), dynamic);
    assertEquals(new TreeSet<>(NCCL_EP_API), defined(readelf("--dyn-syms -W", StandIns.ncclEpLibrary())));
  }

  @Test
  void ncclPrefixesCarryTheirVersionInFileNamesAndHeader() throws Exception {
    Map<Path, String> releases = Map.of(StandIns.ncclHome(), StandIns.NCCL_RELEASE, StandIns.oldNcclHome(),
        StandIns.OLD_NCCL_RELEASE, StandIns.oldestNcclHome(), StandIns.OLDEST_NCCL_RELEASE);
    Map<Path, Integer> codes = Map.of(StandIns.ncclHome(), StandIns.NCCL_VERSION, StandIns.oldNcclHome(),
        StandIns.OLD_NCCL_VERSION, StandIns.oldestNcclHome(), StandIns.OLDEST_NCCL_VERSION);
    for (Path home : releases.keySet()) {
      String release = releases.get(home);
      int code = codes.get(home);
      Path lib = home.resolve("lib");
      assertEquals(Path.of("libnccl.so." + release), Files.readSymbolicLink(lib.resolve("libnccl.so.2")));
      assertEquals(Path.of("libnccl.so.2"), Files.readSymbolicLink(lib.resolve("libnccl.so")));
      String dynamic = readelf("-dW", lib.resolve("libnccl.so." + release));
      assertTrue(dynamic.contains("Library soname: [libnccl.so.2]"), dynamic);
      assertEquals(List.of("libc.so.6"), needed(dynamic));
      String header = Files.readString(home.resolve("include/nccl.h"));
      assertTrue(header.contains("#define NCCL_VERSION_CODE " + code + "\n"), header);
      assertTrue(Files.isRegularFile(home.resolve("include/nccl_device.h")));
      assertTrue(Files.isRegularFile(home.resolve("include/nccl_device/core.h")));
    }
    assertEquals(StandIns.ncclHome().resolve("lib"), StandIns.ncclLibDir());
    String symbols = readelf("--dyn-syms -W", StandIns.ncclLibDir().resolve("libnccl.so.2"));
    assertTrue(defined(symbols).containsAll(Set.of("ncclGetVersion", "ncclGetErrorString", "ncclCommInitRank",
        "ncclCommCount", "ncclMemAlloc", "ncclCommWindowRegister", "ncclDevCommCreate", "ncclAllGather")));
    assertEquals(List.of("libc.so.6"), needed(readelf("-dW", StandIns.cudaLibDir().resolve("libcuda.so.1"))));
  }

  @Test
  void headerTreeCarriesVersionAndGeneratedAbsolutePaths() throws Exception {
    Path include = StandIns.ncclEpHome().resolve("include");
    String header = Files.readString(include.resolve("nccl_ep.h"));
    assertTrue(header.contains("#define NCCL_EP_MAJOR 0\n"), header);
    assertTrue(header.contains("#define NCCL_EP_VERSION_CODE (NCCL_EP_MAJOR * 10000"), header);
    assertTrue(header.contains("#include \"nccl_ep/ep_enums.h\""), header);
    assertEquals(List.of("#pragma once",
            "#define NCCL_EP_JIT_SOURCE_DIR \"" + include.resolve("nccl_ep") + "\"",
            "#define NCCL_EP_JIT_BUILD_INCLUDE_DIR \"" + StandIns.ncclHome().resolve("include") + "\""),
        Files.readAllLines(include.resolve("nccl_ep/config.h")).subList(0, 3));
    assertTrue(Files.readString(include.resolve("nccl_ep/common.hpp")).contains("#include \"device/macros.cuh\""));
    for (String name : List.of("ht_ep", "ll_ep", "ll_ep_adapter", "ll_ep_smem", "device_primitives", "ht_ep_configs",
        "cuda_compat_shims", "scan_kernel", "macros")) {
      assertTrue(Files.isRegularFile(include.resolve("nccl_ep/device/" + name + ".cuh")), name);
    }
    Path broken = StandIns.defect(Defect.INCLUDE_MISSING_HEADER);
    assertFalse(Files.exists(broken.resolve("nccl_ep/device/ll_ep_smem.cuh")));
    assertTrue(Files.readString(broken.resolve("nccl_ep/device/ll_ep.cuh")).contains("#include \"ll_ep_smem.cuh\""));
    String major1 = Files.readString(StandIns.defect(Defect.NCCL_EP_MAJOR_1_HOME).resolve("include/nccl_ep.h"));
    assertTrue(major1.contains("#define NCCL_EP_MAJOR 1\n"), major1);
  }

  @Test
  void eachDefectIsTheLinkItClaims() throws Exception {
    assertFalse(readelf("-dW", StandIns.defect(Defect.TE_LAZY_BINDING)).contains("NOW"));
    List<String> needsEp = new ArrayList<>(List.of("libnccl_ep.so.0"));
    needsEp.addAll(TE_NEEDED);
    assertEquals(needsEp, needed(readelf("-dW", StandIns.defect(Defect.TE_NEEDS_NCCL_EP))));
    assertEquals(List.of("libnccl.so.2", "libcuda.so.1", "libstdc++.so.6", "libgcc_s.so.1", "libc.so.6"),
        needed(readelf("-dW", StandIns.defect(Defect.TE_NEEDS_CUDA))));
    String undefined = readelf("--dyn-syms -W", StandIns.defect(Defect.TE_UNDEFINED_NCCL_EP_SYMBOL));
    for (String name : List.of("ncclEpGetVersion", "ncclEpCreateGroup", "ncclEpCombine", "ncclEpHandleDestroy")) {
      assertTrue(Pattern.compile("UND " + name + "$", Pattern.MULTILINE).matcher(undefined).find(), name);
    }
    assertEquals(new TreeSet<>(TE_API), defined(undefined), "no extra export");
    assertTrue(readelf("-dW", StandIns.defect(Defect.TE_ABSOLUTE_RUNPATH)).contains("Library runpath: [/opt/te/build/lib]"));
    Path major1 = StandIns.defect(Defect.NCCL_EP_MAJOR_1_HOME).resolve("lib/libnccl_ep.so.1.0.0");
    assertTrue(readelf("-dW", major1).contains("Library soname: [libnccl_ep.so.1]"));
    assertTrue(readelf("-dW", StandIns.defect(Defect.NCCL_EP_ABSOLUTE_RUNPATH))
        .contains("Library runpath: [/opt/nccl/lib]"));
    assertTrue(readelf("-dW", StandIns.defect(Defect.NCCL_EP_MAJOR_1_CONSTRUCTOR_MARKER))
        .contains("Library soname: [libnccl_ep.so.1]"));
    assertFalse(defined(readelf("--dyn-syms -W", StandIns.defect(Defect.NCCL_EP_WITHOUT_COMBINE)))
        .contains("ncclEpCombine"));
    assertFalse(readelf("-dW", StandIns.defect(Defect.NCCL_EP_WITHOUT_SONAME)).contains("SONAME"));
  }

  @Test
  void aarch64BuildsAreCommittedForMachinesWithoutACrossCompiler() throws Exception {
    for (String name : List.of("libtransformer_engine.so", "libnccl_ep.so.0.1.0", "libnccl.so.2")) {
      String header = readelf("-hW", StandIns.aarch64(name));
      assertTrue(header.contains("AArch64"), name + ": " + header);
    }
    assertTrue(readelf("-dW", StandIns.aarch64("libtransformer_engine.so")).contains("BIND_NOW"));
    assertEquals(TE_NEEDED, needed(readelf("-dW", StandIns.aarch64("libtransformer_engine.so"))));
    assertEquals(new TreeSet<>(NCCL_EP_API), defined(readelf("--dyn-syms -W", StandIns.aarch64("libnccl_ep.so.0.1.0"))));
  }

  @Test
  void ncclAndNcclEpAnswerAsTheirApiSays() throws Exception {
    Run run = run(List.of(StandIns.root().resolve("checks/ep-api").toString()),
        Map.of("LD_LIBRARY_PATH", path(StandIns.ncclLibDir(), StandIns.cudaLibDir(), StandIns.ncclEpHome().resolve("lib"))));
    assertEquals(0, run.status(), run.output());
    assertTrue(run.output().contains("ep-api: OK"), run.output());
  }

  @Test
  void ncclCollectivesMoveDataBetweenThreeProcessesAndNameARankThatExited() throws Exception {
    Run run = run(List.of(StandIns.root().resolve("checks/nccl-ranks").toString(), "3"),
        Map.of("TE_STANDIN_NCCL_TIMEOUT_S", "60"));
    assertEquals(0, run.status(), run.output());
    assertTrue(run.output().contains("ALL PASS"), run.output());
    assertTrue(run.output().contains("ncclGetLastError: ncclAllReduce: rank 2 (pid"), run.output());
  }

  @Test
  void transformerEngineRunsAnEpStepOnOneRank() throws Exception {
    Run run = epFlow(StandIns.transformerEngine(), StandIns.ncclEpHome(), StandIns.ncclLibDir());
    assertEquals(0, run.status(), run.output());
    assertTrue(run.output().contains("NCCL_EP_HOME=" + StandIns.ncclEpHome() + "\n"), "kept: " + run.output());
  }

  @Test
  void transformerEngineRefusesAnOldNccl() throws Exception {
    Run run = epFlow(StandIns.transformerEngine(), StandIns.ncclEpHome(), StandIns.oldNcclLibDir(),
        "--expect-throw", "NCCL EP requires NCCL >= 2.30.4, found 2.28.9 at runtime.");
    assertEquals(0, run.status(), run.output());
  }

  @Test
  void transformerEngineRefusesAnNcclWithoutWindowsByItsReportedVersion() throws Exception {
    Run run = epFlow(StandIns.transformerEngine(), StandIns.ncclEpHome(), StandIns.oldestNcclLibDir(),
        "--expect-throw", "NCCL EP requires NCCL >= 2.30.4, found 2.21.5 at runtime.");
    assertEquals(0, run.status(), run.output());
  }

  @Test
  void eachNcclStandInExportsExactlyTheFunctionsOfItsReleasesList() throws Exception {
    Map<String, Path> libraries = Map.of(
        StandIns.NCCL_RELEASE, StandIns.ncclLibDir().resolve("libnccl.so." + StandIns.NCCL_RELEASE),
        StandIns.OLD_NCCL_RELEASE, StandIns.oldNcclLibDir().resolve("libnccl.so." + StandIns.OLD_NCCL_RELEASE),
        StandIns.OLDEST_NCCL_RELEASE, StandIns.oldestNcclLibDir().resolve("libnccl.so." + StandIns.OLDEST_NCCL_RELEASE));
    for (Map.Entry<String, Path> entry : libraries.entrySet()) {
      Set<String> list = StandIns.ncclExports(entry.getKey());
      assertTrue(list.size() > 30, entry.getKey() + ": " + list);
      assertEquals(list, nmDefined(entry.getValue()), entry.getValue().toString());
    }
  }

  @Test
  void olderNcclsLackWhatLaterReleasesAdded() throws Exception {
    Set<String> oldest = nmDefined(StandIns.oldestNcclLibDir().resolve("libnccl.so.2"));
    Set<String> old = nmDefined(StandIns.oldNcclLibDir().resolve("libnccl.so.2"));
    Set<String> good = nmDefined(StandIns.ncclLibDir().resolve("libnccl.so.2"));
    assertFalse(oldest.contains("ncclCommWindowRegister"), oldest.toString());
    assertTrue(old.contains("ncclCommWindowRegister") && good.contains("ncclCommWindowRegister"));
    // The device-API host functions NCCL EP imports that came with 2.29/2.30.
    for (String added : List.of("ncclWinGetUserPtr", "ncclGetPeerDevicePointer", "ncclCommQueryProperties")) {
      assertFalse(old.contains(added), added);
      assertTrue(good.contains(added), added);
    }
    // What the NCCL EP stand-in imports from NCCL: all in 2.30.4, not all in 2.28.9.
    Set<String> imports = new TreeSet<>();
    for (String line : nm("-D", "--undefined-only", StandIns.ncclEpLibrary()).split("\n")) {
      String name = line.trim().replaceFirst("^\\S+\\s+", "");
      if (name.startsWith("nccl")) {
        imports.add(name);
      }
    }
    assertTrue(good.containsAll(imports), imports.toString());
    assertFalse(old.containsAll(imports), imports.toString());
    // glibc agrees: NCCL EP (-z now) does not load against 2.28.9, and does against 2.30.4.
    Run refused = dlopenNow(StandIns.ncclEpLibrary(), StandIns.oldNcclLibDir(), StandIns.cudaLibDir());
    assertEquals(1, refused.status(), refused.output());
    assertTrue(Pattern.compile("undefined symbol: (ncclWinGetUserPtr|ncclCommQueryProperties)\n")
        .matcher(refused.output()).find(), refused.output());
    Run loaded = dlopenNow(StandIns.ncclEpLibrary(), StandIns.ncclLibDir(), StandIns.cudaLibDir());
    assertEquals(0, loaded.status(), loaded.output());
  }

  @Test
  void cudaPairsVersionEverySymbolAtTheirNodeAndDifferByOneFunction() throws Exception {
    record Pair(String soname, Path newer, Path older, String lacking) {}
    for (Pair pair : List.of(
        new Pair("libcudart.so.13", StandIns.cudartLibDir(), StandIns.oldCudartLibDir(), StandIns.CUDART_LACKING),
        new Pair("libcublasLt.so.13", StandIns.cublasLtLibDir(), StandIns.oldCublasLtLibDir(),
            StandIns.CUBLASLT_LACKING))) {
      Set<String> newer = new TreeSet<>();
      Set<String> older = new TreeSet<>();
      for (Path folder : List.of(pair.newer(), pair.older())) {
        Path file = folder.resolve(pair.soname());
        String dynamic = readelf("-dW", file);
        assertTrue(dynamic.contains("Library soname: [" + pair.soname() + "]"), dynamic);
        assertTrue(dynamic.contains("BIND_NOW"), dynamic);
        assertTrue(readelf("-VW", file).contains("Name: " + pair.soname()), file.toString());
        Set<String> symbols = defined(readelf("--dyn-syms -W", file));
        assertTrue(symbols.size() > 5, symbols.toString());
        for (String symbol : symbols) {
          assertTrue(symbol.endsWith("@@" + pair.soname()), file + ": " + symbol);
        }
        (folder.equals(pair.newer()) ? newer : older).addAll(symbols);
      }
      Set<String> difference = new TreeSet<>(newer);
      difference.removeAll(older);
      assertEquals(Set.of(pair.lacking() + "@@" + pair.soname()), difference);
      assertTrue(newer.containsAll(older), older.toString());
    }
  }

  @Test
  void libraryBuiltAgainstNewerCudaFailsToLoadAgainstOlderAsGlibcReportsIt() throws Exception {
    Path probe = StandIns.root().resolve("checks/cuda13-probe.so");
    String undefined = nm("-D", "--undefined-only", probe);
    assertTrue(undefined.contains(" U " + StandIns.CUDART_LACKING + "@libcudart.so.13\n"), undefined);
    assertTrue(undefined.contains(" U " + StandIns.CUBLASLT_LACKING + "@libcublasLt.so.13\n"), undefined);
    Run both = dlopenNow(probe, StandIns.cudartLibDir(), StandIns.cublasLtLibDir());
    assertEquals(0, both.status(), both.output());
    Run oldCudart = dlopenNow(probe, StandIns.oldCudartLibDir(), StandIns.cublasLtLibDir());
    assertEquals(1, oldCudart.status(), oldCudart.output());
    assertEquals(probe + ": undefined symbol: " + StandIns.CUDART_LACKING + ", version libcudart.so.13\n",
        oldCudart.output());
    Run oldCublasLt = dlopenNow(probe, StandIns.cudartLibDir(), StandIns.oldCublasLtLibDir());
    assertEquals(1, oldCublasLt.status(), oldCublasLt.output());
    assertEquals(probe + ": undefined symbol: " + StandIns.CUBLASLT_LACKING + ", version libcublasLt.so.13\n",
        oldCublasLt.output());
  }

  @Test
  void transformerEngineRefusesAnotherMajorWithoutRunningIt() throws Exception {
    Path marker = dir.resolve("marker");
    Path home = Files.createDirectories(dir.resolve("home/lib"));
    Files.copy(StandIns.defect(Defect.NCCL_EP_MAJOR_1_CONSTRUCTOR_MARKER), home.resolve("libnccl_ep.so"));
    Run run = run(List.of(StandIns.root().resolve("checks/ep-flow").toString(), StandIns.transformerEngine().toString(),
            "--expect-throw", "SONAME libnccl_ep.so.1, not libnccl_ep.so.0"),
        Map.of("LD_LIBRARY_PATH", path(StandIns.ncclLibDir(), StandIns.cudaLibDir()), "NCCL_EP_HOME",
            home.getParent().toString(), StandIns.CONSTRUCTOR_MARKER_ENV, marker.toString()));
    assertEquals(0, run.status(), run.output());
    assertFalse(Files.exists(marker), "the constructor of libnccl_ep.so.1 ran");
  }

  @Test
  void transformerEngineFindsNcclEpBesideItselfAndSetsNcclEpHome() throws Exception {
    Path wheelLib = Files.createDirectories(dir.resolve("wheel_lib"));
    Path te = Files.copy(StandIns.transformerEngine(), wheelLib.resolve("libtransformer_engine.so"));
    Files.createDirectories(wheelLib.resolve("nccl_ep/lib"));
    Files.copy(StandIns.ncclEpLibrary(), wheelLib.resolve("nccl_ep/lib/libnccl_ep.so.0"));
    Run run = run(List.of(StandIns.root().resolve("checks/ep-flow").toString(), te.toString()),
        Map.of("LD_LIBRARY_PATH", path(StandIns.ncclLibDir(), StandIns.cudaLibDir())));
    assertEquals(0, run.status(), run.output());
    assertTrue(run.output().contains("NCCL_EP_HOME=" + wheelLib.resolve("nccl_ep") + "\n"), run.output());
  }

  private static Run epFlow(Path te, Path ncclEpHome, Path ncclLibDir, String... more) throws Exception {
    List<String> command = new ArrayList<>(List.of(StandIns.root().resolve("checks/ep-flow").toString(), te.toString()));
    command.addAll(List.of(more));
    return run(command, Map.of("LD_LIBRARY_PATH", path(ncclLibDir, StandIns.cudaLibDir()), "NCCL_EP_HOME",
        ncclEpHome.toString()));
  }

  private static String path(Path... folders) {
    return String.join(":", List.of(folders).stream().map(Path::toString).toList());
  }

  private record Run(int status, String output) {}

  private static Run run(List<String> command, Map<String, String> environment) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().remove("NCCL_EP_HOME");
    builder.environment().remove("LD_LIBRARY_PATH");
    builder.environment().putAll(environment);
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "timed out: " + command);
    return new Run(process.exitValue(), out);
  }

  private static List<String> needed(String dynamic) {
    Matcher matcher = NEEDED.matcher(dynamic);
    return matcher.results().map(m -> m.group(1)).toList();
  }

  private static Set<String> defined(String dynSyms) {
    Matcher matcher = DEFINED.matcher(dynSyms);
    return new TreeSet<>(matcher.results().map(m -> m.group(1)).toList());
  }

  private static Run dlopenNow(Path library, Path... libraryPath) throws Exception {
    return run(List.of(StandIns.root().resolve("checks/dlopen-now").toString(), library.toString()),
        Map.of("LD_LIBRARY_PATH", path(libraryPath)));
  }

  /** The names binutils' nm -D lists as defined, without versions (NCCL defines none). */
  private static Set<String> nmDefined(Path file) throws IOException, InterruptedException {
    Set<String> names = new TreeSet<>();
    for (String line : nm("-D", "--defined-only", file).split("\n")) {
      String[] fields = line.trim().split("\\s+");
      if (fields.length == 3) {
        names.add(fields[2]);
      }
    }
    return names;
  }

  private static String nm(String option, String more, Path file) throws IOException, InterruptedException {
    Process process = new ProcessBuilder("nm", option, more, file.toString()).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), "nm timed out");
    assertEquals(0, process.exitValue(), out);
    return out;
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
