package dev.tewheel.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.standins.FloorSpace;
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
import org.junit.jupiter.api.io.TempDir;

/**
 * SymbolScope against glibc itself: for real gcc-built libraries and the library folders each case puts first,
 * the unbound symbols SymbolScope reports are empty exactly when {@code dlopen(RTLD_NOW)} succeeds, and the symbol
 * glibc's dlerror names is among them.
 */
@Timeout(120)
class SymbolScopeTest {
  /** The rules of this machine's glibc, whose dlopen the cases are held to. */
  static final SymbolScope.Glibc HOST = hostGlibc();

  static SymbolScope.Glibc hostGlibc() {
    try {
      String[] version = dev.tewheel.standins.FloorSpace.hostGlibc().split("\\.");
      return SymbolScope.Glibc.of(Integer.parseInt(version[0]), Integer.parseInt(version[1]));
    } catch (java.io.IOException | InterruptedException e) {
      throw new AssertionError(e);
    }
  }
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
    SymbolScope.Unbound first = SymbolScope.of(members, HOST).unbound(ep).get(0);
    assertEquals(List.of("libextra.so.1"), first.unknown());
  }

  @Test
  void weakReferencesAreNeverReported() throws Exception {
    ElfFile probe = ElfFile.read(StandIns.root().resolve("checks/cuda13-probe.so"));
    // The probe's weak __gmon_start__ and _ITM_* references are defined nowhere, even with an empty scope.
    List<String> unbound = SymbolScope.of(List.of(), HOST).unbound(probe).stream().map(SymbolScope.Unbound::describe)
        .toList();
    assertTrue(unbound.stream().noneMatch(s -> s.startsWith("__gmon_start__") || s.startsWith("_ITM_")), unbound
        .toString());
    assertEquals(4, unbound.size(), unbound.toString());
  }

  // --- issue 31: glibc's rules on generated floors (FloorSpace), each verdict held to the forked dlopen too

  private static final List<String> FEW = List.of("GLOBAL HIDDEN DEFINED FUNC NONE",
      "GLOBAL INTERNAL DEFINED OBJECT BASE", "GLOBAL DEFAULT DEFINED FUNC MISSING_NODE",
      "GLOBAL DEFAULT DEFINED FUNC HIDDEN_3", "GLOBAL DEFAULT DEFINED FUNC HIDDEN_2", "GLOBAL DEFAULT DEFINED FUNC INDEX_3",
      "GLOBAL DEFAULT ABS OBJECT NONE", "GLOBAL DEFAULT DEFINED TLS NONE", "GLOBAL DEFAULT DEFINED OBJECT NONE",
      "LOCAL DEFAULT DEFINED OBJECT BASE", "GLOBAL DEFAULT DEFINED OBJECT BASE");
  @TempDir static Path temp;
  private static FloorSpace few;

  /** A few generated cases: the floors of {@link #FEW}, every import kind, with and without a fallback. */
  private static synchronized FloorSpace few() throws IOException, InterruptedException {
    if (few == null) {
      List<FloorSpace.Definition> wanted = FEW.stream().map(FloorSpace.Definition::parse).toList();
      few = FloorSpace.build(temp.resolve("few"), wanted::contains);
    }
    return few;
  }

  /** SymbolScope's verdict on a case, after checking that glibc's dlopen did what the verdict says. */
  private static SymbolScope.Verdict judged(String definition, FloorSpace.Reference reference, boolean fallback,
      SymbolScope.Glibc glibc) throws IOException, InterruptedException {
    FloorSpace.Case c = few().find(definition, reference, fallback);
    SymbolScope.Verdict verdict = SymbolScope.of(SymbolScopeGlibcSpaceTest.members(c), glibc)
        .judge(SymbolScopeGlibcSpaceTest.read(c.referencing()));
    if (glibc == HOST) {
      assertEquals(SymbolScopeGlibcSpaceTest.said(c.glibc()), SymbolScopeGlibcSpaceTest.expected(c, verdict),
          c.toString());
    }
    return verdict;
  }

  private static SymbolScope.Verdict judged(String definition, FloorSpace.Reference reference, boolean fallback)
      throws IOException, InterruptedException {
    return judged(definition, reference, fallback, HOST);
  }

  @Test
  void aHiddenOrInternalFloorDefinitionDefinesNothingAndTheLookupGoesOnToTheNextLibrary() throws Exception {
    SymbolScope.Verdict hidden = judged("GLOBAL HIDDEN DEFINED FUNC NONE", FloorSpace.Reference.UNVERSIONED, false);
    assertEquals(1, hidden.unbound().size(), hidden.toString());
    String name = few().find("GLOBAL HIDDEN DEFINED FUNC NONE", FloorSpace.Reference.UNVERSIONED, false).symbol();
    assertEquals(List.of("libfloor.so has " + name + ", which has HIDDEN visibility, local to libfloor.so"),
        hidden.unbound().get(0).refused().stream().map(SymbolScope.Refusal::describe).toList());
    SymbolScope.Verdict internal = judged("GLOBAL INTERNAL DEFINED OBJECT BASE", FloorSpace.Reference.VERSIONED,
        true);
    assertEquals(List.of(), internal.unbound());
    assertEquals(List.of(FloorSpace.FALLBACK), internal.bound().stream().map(SymbolScope.Bound::member).toList(),
        "the member that binds it is the fallback behind the floor");
  }

  @Test
  void aVersionTheFloorDoesNotDefineIsMissingBeforeAnySymbolBindsUnlessTheNeedIsWeak() throws Exception {
    SymbolScope.Verdict missing = judged("GLOBAL DEFAULT DEFINED FUNC MISSING_NODE", FloorSpace.Reference.VERSIONED,
        true);
    assertEquals(List.of(new SymbolScope.MissingVersion("V1", FloorSpace.FLOOR, List.of(FloorSpace.FLOOR, "V2"),
        List.of(few().find("GLOBAL DEFAULT DEFINED FUNC MISSING_NODE", FloorSpace.Reference.VERSIONED, true)
            .symbol()))), missing.missingVersions());
    SymbolScope.Verdict weak = judged("GLOBAL DEFAULT DEFINED FUNC MISSING_NODE", FloorSpace.Reference.WEAK_NEED,
        false);
    assertEquals(List.of(), weak.missingVersions());
    assertEquals(List.of(FloorSpace.FLOOR), weak.bound().stream().map(SymbolScope.Bound::member).toList(),
        "its definition at index 1 takes any version");
  }

  @Test
  void anUnversionedImportTakesIndexTwoEvenHiddenAndTheOnlyDefaultAboveButNoHiddenVersionAbove() throws Exception {
    SymbolScope.Verdict hidden3 = judged("GLOBAL DEFAULT DEFINED FUNC HIDDEN_3", FloorSpace.Reference.UNVERSIONED,
        false);
    assertEquals(1, hidden3.unbound().size(), hidden3.toString());
    assertTrue(hidden3.unbound().get(0).refused().get(0).reason().startsWith("is a hidden version above index 2"),
        hidden3.toString());
    for (String bound : List.of("GLOBAL DEFAULT DEFINED FUNC HIDDEN_2", "GLOBAL DEFAULT DEFINED FUNC INDEX_3")) {
      SymbolScope.Verdict v = judged(bound, FloorSpace.Reference.UNVERSIONED, true);
      assertEquals(List.of(FloorSpace.FLOOR), v.bound().stream().map(SymbolScope.Bound::member).toList(), bound);
    }
  }

  @Test
  void anAbsoluteDefinitionOfValueZeroAndATlsOneOfValueZeroBind() throws Exception {
    for (String definition : List.of("GLOBAL DEFAULT ABS OBJECT NONE", "GLOBAL DEFAULT DEFINED TLS NONE")) {
      SymbolScope.Verdict v = judged(definition, FloorSpace.Reference.UNVERSIONED, true);
      assertEquals(0, v.bound().get(0).definition().value(), definition);
      assertEquals(List.of(FloorSpace.FLOOR), v.bound().stream().map(SymbolScope.Bound::member).toList(), definition);
    }
  }

  @Test
  void aVersionedImportOfAFloorWithoutAnyVersionTableAbortsGlibcBefore241AndBindsOnLaterOnes() throws Exception {
    String bare = "GLOBAL DEFAULT DEFINED OBJECT NONE";
    for (FloorSpace.Reference kind : List.of(FloorSpace.Reference.VERSIONED, FloorSpace.Reference.WEAK_VERSIONED)) {
      SymbolScope.Verdict old = judged(bare, kind, true, SymbolScope.Glibc.BEFORE_2_41);
      assertEquals(Optional.of(FloorSpace.FLOOR), old.unbound().get(0).abortsAt(), kind.toString());
      SymbolScope.Verdict later = judged(bare, kind, true, SymbolScope.Glibc.SINCE_2_41);
      assertEquals(List.of(), later.unbound(), kind.toString());
      assertEquals(List.of(FloorSpace.FLOOR), later.bound().stream().map(SymbolScope.Bound::member).toList());
      judged(bare, kind, true); // and this machine's glibc did what its rules say
    }
  }

  @Test
  void aVersionNeedMarkedHiddenTakesOnlyADefinitionOfExactlyThatVersion() throws Exception {
    String base = "GLOBAL DEFAULT DEFINED OBJECT BASE";
    assertEquals(List.of(FloorSpace.FLOOR), judged(base, FloorSpace.Reference.VERSIONED, false).bound().stream()
        .map(SymbolScope.Bound::member).toList(), "index 1 takes any version");
    SymbolScope.Verdict hidden = judged(base, FloorSpace.Reference.HIDDEN_NEED, false);
    assertEquals(List.of("has no version, and V1 is needed hidden: only a definition of V1 binds it"),
        hidden.unbound().get(0).refused().stream().map(SymbolScope.Refusal::reason).toList());
    assertEquals(List.of(FloorSpace.FALLBACK), judged(base, FloorSpace.Reference.HIDDEN_NEED, true).bound().stream()
        .map(SymbolScope.Bound::member).toList(), "the fallback has no version table, so it takes any");
  }

  @Test
  void aLocalFloorDefinitionIsSkippedForTheNextLibrary() throws Exception {
    SymbolScope.Verdict v = judged("LOCAL DEFAULT DEFINED OBJECT BASE", FloorSpace.Reference.UNVERSIONED, true);
    assertEquals(List.of(FloorSpace.FALLBACK), v.bound().stream().map(SymbolScope.Bound::member).toList());
    assertEquals(List.of("has LOCAL binding, which glibc skips"), judged("LOCAL DEFAULT DEFINED OBJECT BASE",
        FloorSpace.Reference.UNVERSIONED, false).unbound().get(0).refused().stream().map(SymbolScope.Refusal::reason)
        .toList());
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
    return SymbolScope.of(members, HOST);
  }

  private static Tools.Result dlopenNow(Path library, List<Path> first) throws IOException, InterruptedException {
    String path = String.join(":", first.stream().map(Path::toString).toList());
    return Tools.run(List.of("env", "LD_LIBRARY_PATH=" + path, StandIns.root().resolve("checks/dlopen-now")
        .toString(), library.toString()));
  }
}
