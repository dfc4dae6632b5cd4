package dev.tewheel.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * SymbolScope against glibc itself: for real gcc-built libraries and the library folders each case puts first,
 * the unbound symbols SymbolScope reports are empty exactly when {@code dlopen(RTLD_NOW)} succeeds, and the symbol
 * glibc's dlerror names is among them.
 */
@Timeout(120)
class SymbolScopeTest {
  static Stream<Arguments> cases() {
    Path probe = StandIns.root().resolve("checks/cuda13-probe.so");
    return Stream.of(
        Arguments.of("cuda13-probe on the newer cudart and cuBLASLt", probe,
            List.of(StandIns.cudartLibDir(), StandIns.cublasLtLibDir()), List.of()),
        Arguments.of("cuda13-probe on the older cudart", probe,
            List.of(StandIns.oldCudartLibDir(), StandIns.cublasLtLibDir()),
            List.of(StandIns.CUDART_LACKING + "@libcudart.so.13")),
        Arguments.of("cuda13-probe on the older cuBLASLt", probe,
            List.of(StandIns.cudartLibDir(), StandIns.oldCublasLtLibDir()),
            List.of(StandIns.CUBLASLT_LACKING + "@libcublasLt.so.13")),
        Arguments.of("cuda13-probe on both older ones", probe,
            List.of(StandIns.oldCudartLibDir(), StandIns.oldCublasLtLibDir()),
            List.of(StandIns.CUBLASLT_LACKING + "@libcublasLt.so.13", StandIns.CUDART_LACKING + "@libcudart.so.13")),
        Arguments.of("NCCL EP on NCCL 2.30.4", StandIns.ncclEpLibrary(),
            List.of(StandIns.ncclLibDir(), StandIns.cudaLibDir()), List.of()),
        Arguments.of("NCCL EP on NCCL 2.28.9", StandIns.ncclEpLibrary(),
            List.of(StandIns.oldNcclLibDir(), StandIns.cudaLibDir()),
            List.of("ncclCommQueryProperties", "ncclWinGetUserPtr")),
        Arguments.of("NCCL EP on NCCL 2.21.5", StandIns.ncclEpLibrary(),
            List.of(StandIns.oldestNcclLibDir(), StandIns.cudaLibDir()),
            List.of("ncclCommQueryProperties", "ncclCommWindowDeregister", "ncclCommWindowRegister",
                "ncclDevCommCreate", "ncclDevCommDestroy", "ncclTeamLsa", "ncclTeamRail", "ncclWinGetUserPtr")),
        Arguments.of("TE on NCCL 2.21.5", StandIns.transformerEngine(), List.of(StandIns.oldestNcclLibDir()),
            List.of()),
        Arguments.of("TE calling ncclCommWindowRegister on NCCL 2.30.4",
            StandIns.defect(StandIns.Defect.TE_CALLS_WINDOW_REGISTER), List.of(StandIns.ncclLibDir()), List.of()),
        Arguments.of("TE calling ncclCommWindowRegister on NCCL 2.21.5",
            StandIns.defect(StandIns.Defect.TE_CALLS_WINDOW_REGISTER), List.of(StandIns.oldestNcclLibDir()),
            List.of("ncclCommWindowDeregister", "ncclCommWindowRegister")));
  }

  @Test
  void aLazyLibraryLoadsWithTheSameUnboundSymbols() throws Exception {
    Path lazy = StandIns.defect(StandIns.Defect.TE_CALLS_WINDOW_REGISTER_LAZY);
    ElfFile elf = ElfFile.read(lazy);
    assertEquals(false, elf.bindNow());
    assertEquals(List.of("ncclCommWindowDeregister", "ncclCommWindowRegister"), scope(elf,
        List.of(StandIns.oldestNcclLibDir())).unbound(elf).stream().map(SymbolScope.Unbound::describe).sorted()
        .toList());
    String folder = StandIns.oldestNcclLibDir().toString();
    String dlopen = StandIns.root().resolve("checks/dlopen-now").toString();
    // dlopen(RTLD_LAZY), as TE opens NCCL EP, binds functions at their first call: the load itself succeeds ...
    assertEquals(0, Tools.run(List.of("env", "LD_LIBRARY_PATH=" + folder, dlopen, "--lazy", lazy.toString()))
        .exitCode());
    // ... and so does TE's own loader, ctypes.CDLL(core, mode=RTLD_GLOBAL | RTLD_LAZY) (transformer_engine/common/
    // __init__.py); ctypes adds RTLD_NOW only to a mode without RTLD_LAZY. RTLD_NOW binds every function at once.
    Tools.Result ctypes = Tools.run(List.of("env", "LD_LIBRARY_PATH=" + folder, "python3", "-c",
        "import ctypes, os, sys; ctypes.CDLL(sys.argv[1], mode=ctypes.RTLD_GLOBAL | os.RTLD_LAZY); print('loaded')",
        lazy.toString()));
    assertEquals("loaded", ctypes.stdout().strip(), ctypes.stderr());
    assertEquals(1, dlopenNow(lazy, List.of(StandIns.oldestNcclLibDir())).exitCode());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void unboundSymbolsAreWhatGlibcRefusesToLoad(String name, Path library, List<Path> first, List<String> expected)
      throws Exception {
    ElfFile elf = ElfFile.read(library);
    List<String> unbound = scope(elf, first).unbound(elf).stream().map(SymbolScope.Unbound::describe).sorted()
        .toList();
    assertEquals(expected, unbound);

    Tools.Result glibc = dlopenNow(library, first);
    assertEquals(expected.isEmpty(), glibc.exitCode() == 0, glibc.stderr());
    if (!expected.isEmpty()) {
      // glibc stops at the first relocation it cannot resolve: "undefined symbol: NAME[, version VER]".
      String said = glibc.stderr().replaceAll("(?s).*undefined symbol: ", "").trim().replace(", version ", "@");
      assertTrue(expected.contains(said), "glibc said " + glibc.stderr() + "; SymbolScope: " + expected);
    }
  }

  @Test
  void aVersionedReferenceIsExpectedFromItsFileAndAnUnversionedOneFromTheUnversionedMembers() throws Exception {
    ElfFile probe = ElfFile.read(StandIns.root().resolve("checks/cuda13-probe.so"));
    SymbolScope.Unbound cudart = scope(probe, List.of(StandIns.oldCudartLibDir(), StandIns.cublasLtLibDir()))
        .unbound(probe).get(0);
    assertEquals(List.of("libcudart.so.13"), cudart.expectedFrom());
    assertEquals(List.of(), cudart.unknown());

    ElfFile ep = ElfFile.read(StandIns.ncclEpLibrary());
    SymbolScope.Unbound nccl = scope(ep, List.of(StandIns.oldNcclLibDir(), StandIns.cudaLibDir())).unbound(ep)
        .get(0);
    // libnccl.so.2 and the libcuda.so.1 stand-in carry no versions; libc versions all it defines.
    assertEquals(List.of("libnccl.so.2", "libcuda.so.1"), nccl.expectedFrom());
  }

  @Test
  void aMemberThatCouldNotBeReadIsNamedAsOneThatMightStillDefineTheSymbol() throws Exception {
    ElfFile ep = ElfFile.read(StandIns.ncclEpLibrary());
    List<SymbolScope.Member> members = new ArrayList<>(scope(ep, List.of(StandIns.oldNcclLibDir(),
        StandIns.cudaLibDir())).members());
    members.add(SymbolScope.Member.unknown("libextra.so.1"));
    SymbolScope.Unbound first = SymbolScope.of(members).unbound(ep).get(0);
    assertEquals(List.of("libextra.so.1"), first.unknown());
  }

  @Test
  void weakReferencesAreNeverReported() throws Exception {
    ElfFile probe = ElfFile.read(StandIns.root().resolve("checks/cuda13-probe.so"));
    // The probe's weak __gmon_start__ and _ITM_* references are defined nowhere, even with an empty scope.
    List<String> unbound = SymbolScope.of(List.of()).unbound(probe).stream().map(SymbolScope.Unbound::describe)
        .toList();
    assertTrue(unbound.stream().noneMatch(s -> s.startsWith("__gmon_start__") || s.startsWith("_ITM_")), unbound
        .toString());
    assertEquals(4, unbound.size(), unbound.toString());
  }

  /** The library's DT_NEEDED closure breadth first, each name found in {@code first}, then the system folders. */
  private static SymbolScope scope(ElfFile library, List<Path> first) throws IOException, InterruptedException {
    List<Path> folders = new ArrayList<>(first);
    folders.addAll(SystemLibraries.folders());
    Map<String, ElfFile> found = new LinkedHashMap<>();
    Deque<ElfFile> pending = new ArrayDeque<>(List.of(library));
    while (!pending.isEmpty()) {
      for (String needed : pending.removeFirst().needed()) {
        if (found.containsKey(needed)) {
          continue;
        }
        Optional<Path> file = folders.stream().map(f -> f.resolve(needed)).filter(Files::isRegularFile).findFirst();
        ElfFile elf = ElfFile.read(file.orElseThrow(() -> new AssertionError(needed + " not found in " + folders)));
        found.put(needed, elf);
        pending.add(elf);
      }
    }
    List<SymbolScope.Member> members = new ArrayList<>();
    found.forEach((n, e) -> members.add(SymbolScope.Member.of(n, e)));
    return SymbolScope.of(members);
  }

  private static Tools.Result dlopenNow(Path library, List<Path> first) throws IOException, InterruptedException {
    String path = String.join(":", first.stream().map(Path::toString).toList());
    return Tools.run(List.of("env", "LD_LIBRARY_PATH=" + path, StandIns.root().resolve("checks/dlopen-now")
        .toString(), library.toString()));
  }
}
