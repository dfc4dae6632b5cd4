package dev.tewheel.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.standins.StandIns;
import dev.tewheel.standins.StandIns.Defect;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Every fact the reader reports, on the stand-in libraries gcc built and on the committed aarch64 builds. */
class StandInFactsTest {
  private static final Set<String> NCCL_EP_API = Set.of("ncclEpGetVersion", "ncclEpCommInit", "ncclEpCommDestroy",
      "ncclEpDispatch", "ncclEpCombine", "ncclEpGetErrorString");
  private static final Set<String> TE_API = Set.of("nvte_get_version", "nvte_nccl_ep_last_error",
      "nvte_nccl_ep_required_major", "nvte_nccl_ep_version", "nvte_set_nccl_ep_home");

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
    assertEquals(List.of("libc.so.6"), elf.needed());
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
    assertTrue(elf.undefinedSymbolNames().containsAll(Set.of("dlopen", "dlsym", "getenv", "__cxa_finalize")),
        elf.undefinedSymbolNames().toString());
    assertFalse(elf.undefinedSymbolNames().stream().anyMatch(s -> s.startsWith("ncclEp")));
    // The dynamic loader API moved into libc in glibc 2.34; getenv is as old as x86_64 glibc.
    assertEquals(Map.of("libc.so.6", List.of("GLIBC_2.2.5", "GLIBC_2.34")), needsByFile(elf));
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
    DynamicSymbol exported = symbol(elf, "nvte_get_version");
    assertTrue(exported.defined());
    assertEquals(Optional.empty(), exported.version());
    assertEquals("nvte_get_version", exported.nameWithVersion());
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
    assertEquals(List.of("libnccl_ep.so.0", "libc.so.6"), elf.needed());
    assertTrue(elf.bindNow());
  }

  @Test
  void neededCuda() throws IOException {
    ElfFile elf = ElfFile.read(StandIns.defect(Defect.TE_NEEDS_CUDA));
    assertEquals(List.of("libcuda.so.1", "libc.so.6"), elf.needed());
    assertTrue(elf.definedSymbolNames().contains("nvte_cuda_init"));
  }

  @Test
  void undefinedNcclEpSymbolHasNoVersion() throws IOException {
    ElfFile elf = ElfFile.read(StandIns.defect(Defect.TE_UNDEFINED_NCCL_EP_SYMBOL));
    assertTrue(elf.undefinedSymbolNames().contains("ncclEpGetVersion"), elf.undefinedSymbolNames().toString());
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
    assertEquals(List.of("libnccl.so.2", "libc.so.6"), elf.needed());
    assertEquals(List.of(), elf.runpath());
    assertEquals(List.of(), elf.rpath());
    assertTrue(elf.bindNow());
    assertTrue(elf.fullRelro());
    assertEquals(NCCL_EP_API, elf.definedSymbolNames());
    assertTrue(elf.undefinedSymbolNames().contains("ncclGetVersion"));
    assertEquals(Optional.empty(), symbol(elf, "ncclGetVersion").version(), "libnccl.so.2 defines no versions");
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
    assertEquals(List.of("libc.so.6"), elf.needed());
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
    assertEquals(List.of("libnccl.so.2", "libc.so.6"), ep.needed());
    assertEquals(NCCL_EP_API, ep.definedSymbolNames());
    assertEquals(Map.of("libc.so.6", List.of("GLIBC_2.17")), needsByFile(ep));

    ElfFile nccl = ElfFile.read(StandIns.aarch64("libnccl.so.2"));
    assertEquals(Optional.of("libnccl.so.2"), nccl.soname());
    assertEquals(List.of(), nccl.needed());
    assertEquals(Set.of("ncclGetVersion"), nccl.definedSymbolNames());
    assertTrue(nccl.bindNow());
  }

  @Test
  void everyStandInAgreesWithReadelf() throws Exception {
    List<Path> files = List.of(StandIns.transformerEngine(), StandIns.ncclEpLibrary(),
        StandIns.ncclLibDir().resolve("libnccl.so.2"), StandIns.cudaLibDir().resolve("libcuda.so.1"),
        StandIns.defect(Defect.TE_LAZY_BINDING), StandIns.defect(Defect.TE_NEEDS_NCCL_EP),
        StandIns.defect(Defect.TE_UNDEFINED_NCCL_EP_SYMBOL), StandIns.defect(Defect.TE_NEEDS_CUDA),
        StandIns.defect(Defect.NCCL_EP_ABSOLUTE_RUNPATH),
        StandIns.defect(Defect.NCCL_EP_MAJOR_1_HOME).resolve("lib/libnccl_ep.so.1.0.0"),
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
