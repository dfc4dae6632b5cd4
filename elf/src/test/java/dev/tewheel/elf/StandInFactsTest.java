package dev.tewheel.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.standins.StandIns;
import dev.tewheel.standins.StandIns.Defect;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Every fact the reader reports, on the stand-in libraries gcc built and on the committed aarch64 builds. */
class StandInFactsTest {
  /** The 18 functions of NCCL EP's nccl_ep.h. */
  private static final Set<String> NCCL_EP_API = Set.of("ncclEpGetVersion", "ncclEpTensorAlloc",
      "ncclEpTensorDestroy", "ncclEpCreateGroup", "ncclEpGroupDestroy", "ncclEpHandleMemSize", "ncclEpInitHandle",
      "ncclEpUpdateHandle", "ncclEpCreateHandle", "ncclEpHandleDestroy", "ncclEpDispatch", "ncclEpCombine",
      "ncclEpComplete", "ncclEpMaskQuery", "ncclEpMaskUpdate", "ncclEpMaskClean", "ncclEpGetAsyncError",
      "ncclEpErrorClear");
  /** TE's ep.h functions and the tensor functions of transformer_engine.h that the stand-in exports. */
  private static final Set<String> TE_API = Set.of("nvte_ep_initialize", "nvte_ep_shutdown",
      "nvte_ep_handle_mem_size", "nvte_ep_prepare", "nvte_ep_dispatch", "nvte_ep_combine", "nvte_ep_dispatch_bwd",
      "nvte_ep_combine_bwd", "nvte_create_tensor", "nvte_destroy_tensor", "nvte_set_tensor_param", "nvte_tensor_data",
      "nvte_tensor_shape", "nvte_tensor_type");
  /** TE's DT_NEEDED, in file order: NCCL (TE calls ncclGetVersion itself), then the C++ and C runtimes. */
  private static final List<String> TE_NEEDED = List.of("libnccl.so.2", "libstdc++.so.6", "libgcc_s.so.1",
      "libc.so.6");

  @Test
  void transformerEngine() throws IOException {
    ElfFile elf = ElfFile.read(StandIns.transformerEngine());
    ElfHeader h = elf.header();
    assertEquals(ElfClass.ELF64, h.elfClass());
    assertEquals(64, h.elfClass().bits());
    assertEquals(ElfData.LSB, h.data());
    assertEquals(ElfType.DYN, h.type());
    assertEquals(ElfMachine.X86_64, h.machine());
    assertEquals("x86_64", h.machine().name());
    assertEquals(OsAbi.SYSV, h.osAbi());
    assertTrue(elf.isDynamic());
    assertEquals(Optional.of("libtransformer_engine.so"), elf.soname());
    assertEquals(TE_NEEDED, elf.needed());
    assertEquals(List.of(), elf.rpath());
    assertEquals(List.of(), elf.runpath());
    assertEquals(Optional.empty(), elf.interpreter());
    // -z now writes both DF_BIND_NOW and DF_1_NOW.
    assertTrue(elf.bindNow());
    assertEquals(DynamicFlags.DF_BIND_NOW, elf.flags() & DynamicFlags.DF_BIND_NOW);
    assertEquals(DynamicFlags.DF_1_NOW, elf.flags1() & DynamicFlags.DF_1_NOW);
    assertTrue(elf.relro());
    assertTrue(elf.fullRelro());
    assertEquals(TE_API, elf.definedSymbolNames());
    assertTrue(elf.undefinedSymbolNames().containsAll(Set.of("dlopen", "dlsym", "dladdr", "getenv", "setenv",
        "__cxa_finalize", "ncclGetVersion", "ncclCommCount", "ncclGetErrorString")), elf.undefinedSymbolNames().toString());
    assertFalse(elf.undefinedSymbolNames().stream().anyMatch(s -> s.startsWith("ncclEp")));
    // The dynamic loader API moved into libc in glibc 2.34; getenv is as old as x86_64 glibc, memcpy@GLIBC_2.14 is
    // the x86_64 memcpy that may not overlap. libnccl.so.2 defines no versions, so it has no entry.
    Map<String, List<String>> needs = needsByFile(elf);
    assertEquals(Set.of("libc.so.6", "libstdc++.so.6", "libgcc_s.so.1"), needs.keySet());
    assertEquals(List.of("GLIBC_2.14", "GLIBC_2.2.5", "GLIBC_2.34"), needs.get("libc.so.6"));
    assertEquals(List.of("GCC_3.0"), needs.get("libgcc_s.so.1"));
    assertTrue(needs.get("libstdc++.so.6").containsAll(List.of("CXXABI_1.3", "GLIBCXX_3.4", "GLIBCXX_3.4.21")),
        needs.toString());
  }

  @Test
  void libcImportsCarryTheirVersions() throws IOException {
    ElfFile elf = ElfFile.read(StandIns.transformerEngine());
    DynamicSymbol getenv = symbol(elf, "getenv");
    assertFalse(getenv.defined());
    assertEquals(SymbolBinding.GLOBAL, getenv.binding());
    assertEquals(SymbolType.FUNC, getenv.type());
    assertEquals(SymbolVisibility.DEFAULT, getenv.visibility());
    assertEquals(Optional.of(new SymbolVersion("GLIBC_2.2.5", false, Optional.of("libc.so.6"))), getenv.version());
    assertEquals("getenv@GLIBC_2.2.5", getenv.nameWithVersion());
    assertEquals("GLIBC_2.34", symbol(elf, "dlopen").version().orElseThrow().name());
    // Weak, unversioned: the linker's optional hooks.
    DynamicSymbol gmon = symbol(elf, "__gmon_start__");
    assertEquals(SymbolBinding.WEAK, gmon.binding());
    assertEquals(Optional.empty(), gmon.version());
    DynamicSymbol exported = symbol(elf, "nvte_ep_initialize");
    assertTrue(exported.defined());
    assertEquals(Optional.empty(), exported.version());
    assertEquals("nvte_ep_initialize", exported.nameWithVersion());
    // Imported from a library without symbol versions.
    DynamicSymbol nccl = symbol(elf, "ncclGetVersion");
    assertFalse(nccl.defined());
    assertEquals(Optional.empty(), nccl.version());
    // Entry 0 is the null symbol.
    assertEquals("", elf.dynamicSymbols().get(0).name());
    assertEquals(SymbolBinding.LOCAL, elf.dynamicSymbols().get(0).binding());
  }

  @Test
  void lazyBindingIsNotBindNow() throws IOException {
    ElfFile elf = ElfFile.read(StandIns.defect(Defect.TE_LAZY_BINDING));
    assertFalse(elf.bindNow());
    assertEquals(0, elf.flags() & DynamicFlags.DF_BIND_NOW);
    assertEquals(0, elf.flags1() & DynamicFlags.DF_1_NOW);
    assertFalse(elf.relro(), "linked with -z norelro");
    assertFalse(elf.fullRelro());
    assertEquals(Optional.of("libtransformer_engine.so"), elf.soname());
  }

  @Test
  void neededNcclEpComesFirstInFileOrder() throws IOException {
    ElfFile elf = ElfFile.read(StandIns.defect(Defect.TE_NEEDS_NCCL_EP));
    List<String> needed = new ArrayList<>(List.of("libnccl_ep.so.0"));
    needed.addAll(TE_NEEDED);
    assertEquals(needed, elf.needed());
    assertTrue(elf.bindNow());
  }

  @Test
  void neededCuda() throws IOException {
    ElfFile elf = ElfFile.read(StandIns.defect(Defect.TE_NEEDS_CUDA));
    assertEquals(List.of("libnccl.so.2", "libcuda.so.1", "libstdc++.so.6", "libgcc_s.so.1", "libc.so.6"),
        elf.needed());
    assertEquals(TE_API, elf.definedSymbolNames(), "the call into the driver adds no export");
    assertTrue(elf.undefinedSymbolNames().contains("cuDriverGetVersion"));
  }

  @Test
  void undefinedNcclEpSymbolHasNoVersion() throws IOException {
    ElfFile elf = ElfFile.read(StandIns.defect(Defect.TE_UNDEFINED_NCCL_EP_SYMBOL));
    // The backend's nine NCCL EP functions, bound at link time instead of through dlsym.
    assertEquals(Set.of("ncclEpGetVersion", "ncclEpCreateGroup", "ncclEpGroupDestroy", "ncclEpHandleMemSize",
            "ncclEpInitHandle", "ncclEpUpdateHandle", "ncclEpDispatch", "ncclEpCombine", "ncclEpHandleDestroy"),
        elf.undefinedSymbolNames().stream().filter(n -> n.startsWith("ncclEp")).collect(Collectors.toSet()));
    assertEquals(TE_API, elf.definedSymbolNames(), "no extra export");
    DynamicSymbol s = symbol(elf, "ncclEpGetVersion");
    assertFalse(s.defined());
    assertEquals(DynamicSymbol.SHN_UNDEF, s.sectionIndex());
    assertEquals(Optional.empty(), s.version());
    assertEquals("ncclEpGetVersion", s.nameWithVersion());
    assertFalse(elf.definedSymbolNames().contains("ncclEpGetVersion"));
  }

  @Test
  void ncclEpLibrary() throws IOException {
    ElfFile elf = ElfFile.read(StandIns.ncclEpLibrary());
    assertEquals(Optional.of("libnccl_ep.so.0"), elf.soname());
    assertEquals(List.of("libnccl.so.2", "libcuda.so.1", "libc.so.6"), elf.needed());
    assertEquals(List.of(), elf.runpath());
    assertEquals(List.of(), elf.rpath());
    assertTrue(elf.bindNow());
    assertTrue(elf.fullRelro());
    assertEquals(NCCL_EP_API, elf.definedSymbolNames());
    // What NCCL EP imports from NCCL and from the CUDA driver.
    assertTrue(elf.undefinedSymbolNames().containsAll(Set.of("ncclCommCount", "ncclCommUserRank", "ncclCommCuDevice",
        "ncclMemAlloc", "ncclMemFree", "ncclCommWindowRegister", "ncclCommWindowDeregister", "ncclDevCommCreate",
        "ncclDevCommDestroy", "ncclAllGather", "ncclAllReduce", "ncclGetErrorString", "cuInit", "cuDeviceGet",
        "cuDeviceGetAttribute")), elf.undefinedSymbolNames().toString());
    assertEquals(Optional.empty(), symbol(elf, "ncclCommCount").version(), "libnccl.so.2 defines no versions");
    assertEquals(Map.of("libc.so.6", List.of("GLIBC_2.14", "GLIBC_2.2.5")), needsByFile(elf));
  }

  @Test
  void ncclLibrariesOfEachVersionDefineThatReleasesFunctions() throws IOException {
    Map<String, Path> libraries = Map.of(
        StandIns.NCCL_RELEASE, StandIns.ncclLibDir().resolve("libnccl.so." + StandIns.NCCL_RELEASE),
        StandIns.OLD_NCCL_RELEASE, StandIns.oldNcclLibDir().resolve("libnccl.so." + StandIns.OLD_NCCL_RELEASE),
        StandIns.OLDEST_NCCL_RELEASE, StandIns.oldestNcclLibDir().resolve("libnccl.so." + StandIns.OLDEST_NCCL_RELEASE));
    for (Map.Entry<String, Path> entry : libraries.entrySet()) {
      Path lib = entry.getValue();
      ElfFile nccl = ElfFile.read(lib);
      assertEquals(Optional.of("libnccl.so.2"), nccl.soname(), lib.toString());
      assertEquals(List.of("libc.so.6"), nccl.needed());
      // Each release exports its own functions: 2.28.9 has none of 2.30's (the old assertion gave all three the
      // functions c/nccl.c implements, 2.30's included, so no test could see what the NCCL gate is for).
      assertEquals(StandIns.ncclExports(entry.getKey()), nccl.definedSymbolNames(), lib.toString());
      assertEquals(Optional.empty(), symbol(nccl, "ncclGetVersion").version(), "the stand-in defines no versions");
    }
    // The link a loader opens by SONAME reads as the real file.
    assertEquals(Optional.of("libnccl.so.2"), ElfFile.read(StandIns.ncclLibDir().resolve("libnccl.so.2")).soname());
  }

  @Test
  void symlinksInNcclEpHomeReadAsTheRealFile() throws IOException {
    Path lib = StandIns.ncclEpHome().resolve("lib");
    for (String link : List.of("libnccl_ep.so", "libnccl_ep.so.0")) {
      assertTrue(Files.isSymbolicLink(lib.resolve(link)), link);
      assertEquals(Optional.of("libnccl_ep.so.0"), ElfFile.read(lib.resolve(link)).soname(), link);
    }
  }

  @Test
  void absoluteRunpath() throws IOException {
    ElfFile elf = ElfFile.read(StandIns.defect(Defect.NCCL_EP_ABSOLUTE_RUNPATH));
    assertEquals(List.of("/opt/nccl/lib"), elf.runpath());
    assertEquals(List.of(), elf.rpath(), "--enable-new-dtags writes DT_RUNPATH only");
  }

  @Test
  void otherMajorVersion() throws IOException {
    Path home = StandIns.defect(Defect.NCCL_EP_MAJOR_1_HOME);
    ElfFile elf = ElfFile.read(home.resolve("lib/libnccl_ep.so.1.0.0"));
    assertEquals(Optional.of("libnccl_ep.so.1"), elf.soname());
    assertEquals(NCCL_EP_API, elf.definedSymbolNames());
  }

  @Test
  void aarch64TransformerEngine() throws IOException {
    ElfFile elf = ElfFile.read(StandIns.aarch64("libtransformer_engine.so"));
    assertEquals(ElfMachine.AARCH64, elf.header().machine());
    assertEquals("aarch64", elf.header().machine().name());
    assertEquals(ElfClass.ELF64, elf.header().elfClass());
    assertEquals(ElfData.LSB, elf.header().data());
    assertEquals(ElfType.DYN, elf.header().type());
    assertEquals(Optional.of("libtransformer_engine.so"), elf.soname());
    assertEquals(TE_NEEDED, elf.needed());
    assertTrue(elf.bindNow());
    assertTrue(elf.relro());
    assertEquals(TE_API, elf.definedSymbolNames());
    // aarch64 glibc starts at 2.17, so every older version collapses to GLIBC_2.17.
    assertTrue(needsByFile(elf).get("libc.so.6").contains("GLIBC_2.17"), needsByFile(elf).toString());
    assertEquals("GLIBC_2.17", symbol(elf, "getenv").version().orElseThrow().name());
  }

  @Test
  void aarch64NcclEpAndNccl() throws IOException {
    ElfFile ep = ElfFile.read(StandIns.aarch64("libnccl_ep.so.0.1.0"));
    assertEquals(ElfMachine.AARCH64, ep.header().machine());
    assertEquals(Optional.of("libnccl_ep.so.0"), ep.soname());
    assertEquals(List.of("libnccl.so.2", "libcuda.so.1", "libc.so.6"), ep.needed());
    assertEquals(NCCL_EP_API, ep.definedSymbolNames());
    assertEquals(Map.of("libc.so.6", List.of("GLIBC_2.17")), needsByFile(ep));

    ElfFile nccl = ElfFile.read(StandIns.aarch64("libnccl.so.2"));
    assertEquals(Optional.of("libnccl.so.2"), nccl.soname());
    assertEquals(List.of("libc.so.6"), nccl.needed());
    assertEquals(StandIns.ncclExports(StandIns.NCCL_RELEASE), nccl.definedSymbolNames());
    assertTrue(nccl.bindNow());
  }

  @Test
  void everyStandInAgreesWithReadelf() throws Exception {
    List<Path> files = List.of(StandIns.transformerEngine(), StandIns.ncclEpLibrary(),
        StandIns.ncclLibDir().resolve("libnccl.so.2"), StandIns.oldNcclLibDir().resolve("libnccl.so.2"),
        StandIns.oldestNcclLibDir().resolve("libnccl.so.2"), StandIns.cudartLibDir().resolve("libcudart.so.13"),
        StandIns.oldCudartLibDir().resolve("libcudart.so.13"), StandIns.cublasLtLibDir().resolve("libcublasLt.so.13"),
        StandIns.oldCublasLtLibDir().resolve("libcublasLt.so.13"), StandIns.root().resolve("checks/cuda13-probe.so"),
        StandIns.cudaLibDir().resolve("libcuda.so.1"), StandIns.defect(Defect.TE_ABSOLUTE_RUNPATH),
        StandIns.defect(Defect.TE_LAZY_BINDING), StandIns.defect(Defect.TE_NEEDS_NCCL_EP),
        StandIns.defect(Defect.TE_UNDEFINED_NCCL_EP_SYMBOL), StandIns.defect(Defect.TE_NEEDS_CUDA),
        StandIns.defect(Defect.NCCL_EP_ABSOLUTE_RUNPATH),
        StandIns.defect(Defect.NCCL_EP_MAJOR_1_HOME).resolve("lib/libnccl_ep.so.1.0.0"),
        StandIns.defect(Defect.NCCL_EP_MAJOR_1_CONSTRUCTOR_MARKER), StandIns.defect(Defect.NCCL_EP_WITHOUT_COMBINE),
        StandIns.defect(Defect.NCCL_EP_WITHOUT_SONAME),
        StandIns.aarch64("libtransformer_engine.so"), StandIns.aarch64("libnccl_ep.so.0.1.0"),
        StandIns.aarch64("libnccl.so.2"));
    for (Path file : files) {
      assertEquals(Readelf.facts(file), Facts.of(ElfFile.read(file)), file.toString());
    }
  }

  static DynamicSymbol symbol(ElfFile elf, String name) {
    return elf.dynamicSymbols().stream().filter(s -> s.name().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError(name + " is not among the dynamic symbols of " + elf.name()));
  }

  /** Version needs as file to sorted versions, for comparing with a literal. */
  static Map<String, List<String>> needsByFile(ElfFile elf) {
    Map<String, List<String>> result = new TreeMap<>();
    for (VersionNeed need : elf.versionNeeds()) {
      result.put(need.file(), need.versions().stream().sorted().toList());
    }
    return result;
  }
}
