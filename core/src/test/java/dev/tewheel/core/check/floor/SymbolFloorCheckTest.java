package dev.tewheel.core.check.floor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.standins.FloorSpace;
import dev.tewheel.standins.StandIns.Defect;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * SYMBOL-FLOOR on the stand-ins, each verdict held beside glibc's: {@code checks/dlopen-now} dlopen's the library
 * with the floor folders first on LD_LIBRARY_PATH, and the check errs exactly when that load fails.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SymbolFloorCheckTest {
  private static final String TE = "libtransformer_engine.so";
  private static final String PROBE = "libcuda13_probe.so";

  @TempDir Path temp;

  private static List<Finding> run(List<Path> floors, SubjectFile... files) {
    Subject subject = new Subject("test wheel_lib", Layout.DEFAULT, List.of(files),
        CheckSettings.defaults().withFloorLibraries(floors));
    return CheckCatalogue.check("SYMBOL-FLOOR").run(subject);
  }

  private static List<Finding> atLeast(Severity level, List<Finding> findings) {
    return findings.stream().filter(f -> f.severity().atLeast(level)).toList();
  }

  private static List<String> symbols(List<Finding> findings) {
    return findings.stream().map(f -> f.severity() + " " + f.found().substring(0, f.found().indexOf(' ')))
        .sorted().toList();
  }

  /** glibc's verdict: dlopen(RTLD_NOW) of {@code library} with {@code floors} first on the library path. */
  private static boolean glibcLoads(Path library, List<Path> floors) throws Exception {
    return glibcLoads(library, floors, false);
  }

  /** The same, with RTLD_LAZY when {@code lazy} (as TE's Python loads its core library). */
  private static boolean glibcLoads(Path library, List<Path> floors, boolean lazy) throws Exception {
    String path = String.join(":", floors.stream().map(Path::toString).toList());
    List<String> command = new ArrayList<>(List.of("env", "LD_LIBRARY_PATH=" + path,
        StandIns.root().resolve("checks/dlopen-now").toString()));
    if (lazy) {
      command.add("--lazy");
    }
    command.add(library.toString());
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "dlopen-now did not finish");
    return p.exitValue() == 0;
  }

  /** A wheel shaped like pip's nvidia-nccl one: nvidia/nccl/lib/libnccl.so.2 (deflated) and its headers. */
  private Path ncclWheel(String release, Path library) throws IOException {
    Path whl = temp.resolve("nvidia_nccl_cu13-" + release + "-py3-none-manylinux_2_18_x86_64.whl");
    try (OutputStream file = Files.newOutputStream(whl); ZipOutputStream zip = new ZipOutputStream(file)) {
      zip.putNextEntry(new ZipEntry("nvidia/__init__.py"));
      zip.closeEntry();
      zip.putNextEntry(new ZipEntry("nvidia/nccl/include/nccl.h"));
      zip.write("/* headers */\n".getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
      zip.putNextEntry(new ZipEntry("nvidia/nccl/lib/libnccl.so.2"));
      Files.copy(library, zip);
      zip.closeEntry();
      String info = "nvidia_nccl_cu13-" + release + ".dist-info/";
      zip.putNextEntry(new ZipEntry(info + "METADATA"));
      zip.write(("Metadata-Version: 2.1\nName: nvidia-nccl-cu13\nVersion: " + release + "\n")
          .getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
    }
    return whl;
  }

  @Test
  void aBindNowTeCallingWindowRegisterFailsAgainstAnNcclFloorFolderThatLacksIt() throws Exception {
    Path te = StandIns.defect(Defect.TE_CALLS_WINDOW_REGISTER);
    List<Path> floors = List.of(StandIns.oldestNcclLibDir());
    List<Finding> findings = atLeast(Severity.WARNING, run(floors, SubjectFile.onDisk(TE, te)));
    assertEquals(List.of("ERROR ncclCommWindowDeregister", "ERROR ncclCommWindowRegister"), symbols(findings));
    Finding register = findings.stream().filter(f -> f.found().startsWith("ncclCommWindowRegister ")).findFirst()
        .orElseThrow();
    Path floor = StandIns.oldestNcclLibDir().resolve("libnccl.so." + StandIns.OLDEST_NCCL_RELEASE).toRealPath();
    assertEquals(new Finding("SYMBOL-FLOOR", Severity.ERROR, te.toString(), "ncclCommWindowRegister (needed from"
        + " libnccl.so.2), which the floor " + floor + " (NCCL 2.21.5) does not define", "every symbol " + TE
        + " binds in libnccl.so.2 defined by its floor (a BIND_NOW library fails to load where a symbol is missing)",
        "raise the release's pinned libnccl.so.2 to a version that defines ncclCommWindowRegister, or build " + TE
            + " against the floor's headers and library so it does not need it"), register);
    assertEquals(false, glibcLoads(te, floors), "glibc refuses it too");
  }

  @Test
  void theSameTePassesAgainstNccl2304() throws Exception {
    Path te = StandIns.defect(Defect.TE_CALLS_WINDOW_REGISTER);
    List<Path> floors = List.of(StandIns.ncclLibDir());
    List<Finding> findings = run(floors, SubjectFile.onDisk(TE, te));
    assertEquals(List.of(), atLeast(Severity.WARNING, findings));
    assertEquals(List.of(new Finding("SYMBOL-FLOOR", Severity.INFO, te.toString(), "DT_NEEDED without a floor,"
        + " not checked: libstdc++.so.6 (" + TE + "), libgcc_s.so.1 (" + TE + "), libc.so.6 (" + TE + ")",
        "a floor for each external library whose version the release pins", "add the oldest supported version of"
            + " each to te.floorLibraries; the system's own (libc, libm, ...) follow the platform tag instead"
            + " (PLATFORM)")), findings, "the NEEDED without a floor are listed, never passed silently");
    assertEquals(true, glibcLoads(te, floors));
  }

  @Test
  void anNcclFloorWheelIsReadInPlaceAndJudgedAsItsFolder() throws Exception {
    Path te = StandIns.defect(Defect.TE_CALLS_WINDOW_REGISTER);
    Path old = ncclWheel(StandIns.OLDEST_NCCL_RELEASE,
        StandIns.oldestNcclLibDir().resolve("libnccl.so." + StandIns.OLDEST_NCCL_RELEASE));
    List<Finding> findings = atLeast(Severity.WARNING, run(List.of(old), SubjectFile.onDisk(TE, te)));
    assertEquals(List.of("ERROR ncclCommWindowDeregister", "ERROR ncclCommWindowRegister"), symbols(findings));
    assertTrue(findings.get(0).found().contains("which the floor " + old + "!nvidia/nccl/lib/libnccl.so.2 (NCCL"
        + " 2.21.5) does not define"), findings.get(0).found());
    try (Stream<Path> left = Files.list(temp)) {
      assertEquals(List.of(old), left.toList(), "nothing was extracted beside the wheel");
    }
    Path good = ncclWheel(StandIns.NCCL_RELEASE, StandIns.ncclLibDir().resolve("libnccl.so." + StandIns.NCCL_RELEASE));
    assertEquals(List.of(), atLeast(Severity.WARNING, run(List.of(good), SubjectFile.onDisk(TE, te))));
  }

  @Test
  void aVersionedCudartSymbolFailsAgainstTheOlderCudartAndPassesAgainstTheNewer() throws Exception {
    Path probe = StandIns.root().resolve("checks/cuda13-probe.so");
    List<Path> old = List.of(StandIns.oldCudartLibDir(), StandIns.cublasLtLibDir());
    List<Finding> findings = atLeast(Severity.WARNING, run(old, SubjectFile.onDisk(PROBE, probe)));
    assertEquals(List.of("ERROR " + StandIns.CUDART_LACKING + "@libcudart.so.13"), symbols(findings));
    assertTrue(findings.get(0).found().endsWith("(needed from libcudart.so.13), which the floor "
        + StandIns.oldCudartLibDir().resolve("libcudart.so.13") + " does not define"), findings.get(0).found());
    assertEquals(false, glibcLoads(probe, old));

    List<Path> newer = List.of(StandIns.cudartLibDir(), StandIns.cublasLtLibDir());
    assertEquals(List.of(), run(newer, SubjectFile.onDisk(PROBE, probe)), "every NEEDED has a floor");
    assertEquals(true, glibcLoads(probe, newer));
  }

  @Test
  void aLazyTeGetsAWarningAsItLoadsAndFailsAtTheFirstCall() throws Exception {
    Path lazy = StandIns.defect(Defect.TE_CALLS_WINDOW_REGISTER_LAZY);
    List<Finding> findings = atLeast(Severity.WARNING, run(List.of(StandIns.oldestNcclLibDir()),
        SubjectFile.onDisk(TE, lazy)));
    assertEquals(List.of("WARNING ncclCommWindowDeregister", "WARNING ncclCommWindowRegister"), symbols(findings));
    assertTrue(findings.get(0).expected().endsWith("(a lazily bound library loads, then fails at the first call of a"
        + " missing function)"), findings.get(0).expected());
    assertEquals(true, glibcLoads(lazy, List.of(StandIns.oldestNcclLibDir()), true), "glibc loads it lazily");
    assertEquals(false, glibcLoads(lazy, List.of(StandIns.oldestNcclLibDir())), "and refuses it with RTLD_NOW");
  }

  @Test
  void withoutFloorLibrariesTheCheckSaysItDidNotRun() throws Exception {
    List<Finding> findings = run(List.of(), SubjectFile.onDisk(TE, StandIns.defect(Defect.TE_CALLS_WINDOW_REGISTER)));
    assertEquals(1, findings.size(), findings.toString());
    assertEquals(Severity.INFO, findings.get(0).severity());
    assertTrue(findings.get(0).found().endsWith("SYMBOL-FLOOR did not run"), findings.get(0).found());
  }

  @Test
  void ncclEpIsHeldOnlyToAFloorNcclThatPassesItsGate() throws Exception {
    SubjectFile ep = SubjectFile.onDisk("libnccl_ep.so", StandIns.ncclEpLibrary());
    // 2.28.9 lacks ncclWinGetUserPtr and ncclCommQueryProperties, which NCCL EP imports; but TE never loads NCCL EP
    // there. The floor is a plain libnccl.so.2, so its release comes from the text in its .rodata.
    Path plain = Files.createDirectories(temp.resolve("pip/nvidia/nccl/lib"));
    Files.copy(StandIns.oldNcclLibDir().resolve("libnccl.so." + StandIns.OLD_NCCL_RELEASE), plain.resolve("libnccl.so.2"));
    List<Finding> below = run(List.of(plain, StandIns.cudaLibDir()), ep);
    assertEquals(List.of(), atLeast(Severity.WARNING, below));
    assertTrue(below.stream().anyMatch(f -> f.found().equals("the floor " + plain.resolve("libnccl.so.2")
        + " of libnccl.so.2 is NCCL 2.28.9, below NCCL EP's gate (2.30.4): TE loads NCCL EP only on NCCL >= 2.30.4,"
        + " so NCCL EP's imports from libnccl.so.2 are not held to it")), below.toString());
    assertEquals(false, glibcLoads(StandIns.ncclEpLibrary(), List.of(plain, StandIns.cudaLibDir())),
        "glibc alone would refuse it: the gate is what keeps it from being loaded there");

    assertEquals(List.of(), atLeast(Severity.WARNING, run(List.of(StandIns.ncclLibDir(), StandIns.cudaLibDir()), ep)));
  }

  @Test
  void aFloorThatCannotBeReadIsAnErrorNamingIt() throws Exception {
    Path missing = temp.resolve("nccl-2.21.5/lib");
    Path script = Files.writeString(temp.resolve("libnccl.so"), "INPUT(libnccl.so.2)\n");
    List<Finding> findings = atLeast(Severity.WARNING, run(List.of(missing, script),
        SubjectFile.onDisk(TE, StandIns.transformerEngine())));
    List<String> found = new ArrayList<>();
    findings.forEach(f -> found.add(f.severity() + " " + f.file() + ": " + f.found().replaceAll(" \\(.*", "")));
    assertEquals(List.of("ERROR " + missing + ": a floorLibraries entry that does not exist",
        "ERROR " + script + ": a file that is not ELF"), found);
  }

  @Test
  void anUnversionedSymbolALibraryWithoutAFloorMayDefineIsListedNotJudged() throws Exception {
    // NCCL EP's cu* imports are unversioned, as NCCL's: without a libcuda.so.1 floor they may be meant for it.
    List<Finding> findings = run(List.of(StandIns.ncclLibDir()), SubjectFile.onDisk("libnccl_ep.so",
        StandIns.ncclEpLibrary()));
    assertEquals(List.of(), atLeast(Severity.WARNING, findings));
    Finding listed = findings.stream().filter(f -> f.found().contains(" unversioned symbol")).findFirst()
        .orElseThrow(() -> new AssertionError(findings.toString()));
    assertTrue(listed.found().matches("\\d+ unversioned symbols? that no floor defines and libcuda\\.so\\.1 \\(no floor\\)"
        + " may: cu.*; not judged"), listed.found());
  }

  @Test
  void aFloorEntryOfWhichNoShippedLibraryNeedsAnythingIsNamed() throws Exception {
    Path probe = StandIns.root().resolve("checks/cuda13-probe.so");
    List<Finding> findings = run(List.of(StandIns.cudartLibDir(), StandIns.cublasLtLibDir(), StandIns.ncclLibDir()),
        SubjectFile.onDisk(PROBE, probe));
    assertEquals(List.of(new Finding("SYMBOL-FLOOR", Severity.INFO, StandIns.ncclLibDir().toString(), "a"
        + " floorLibraries entry whose libraries (libnccl.so.2) no shipped library NEEDS", "floors of the libraries"
        + " the shipped ones NEED", "check the floors' SONAMEs (readelf -d), or drop the entry from"
        + " te.floorLibraries")), findings);
  }

  @Test
  void aFloorNcclsReleaseComesFromItsWheelWhenItsFileSaysNoneAndIsNeverGuessed() throws Exception {
    // A libnccl.so.2 with neither the "NCCL version" text nor a versioned file name.
    Path lib = Files.createDirectories(temp.resolve("bare/lib"));
    Path source = Files.writeString(temp.resolve("nccl.c"), "int ncclGetVersion(int *v) { *v = 0; return 0; }\n");
    dev.tewheel.standins.Gcc.run("-shared", "-fPIC", "-Wl,-soname,libnccl.so.2", "-o", lib.resolve("libnccl.so.2")
        .toString(), source.toString());
    SubjectFile ep = SubjectFile.onDisk("libnccl_ep.so", StandIns.ncclEpLibrary());
    List<Finding> unknown = run(List.of(lib, StandIns.cudaLibDir()), ep);
    assertEquals(List.of(), atLeast(Severity.WARNING, unknown), "NCCL EP is not held to an NCCL of no known release");
    assertTrue(unknown.stream().anyMatch(f -> f.found().startsWith("the floor " + lib.resolve("libnccl.so.2")
        + " of libnccl.so.2 is an NCCL whose release its files do not say")), unknown.toString());

    Path whl = ncclWheel("2.28.9", lib.resolve("libnccl.so.2"));
    List<Finding> named = run(List.of(whl, StandIns.cudaLibDir()), ep);
    assertTrue(named.stream().anyMatch(f -> f.found().startsWith("the floor " + whl + "!nvidia/nccl/lib/libnccl.so.2"
        + " of libnccl.so.2 is NCCL 2.28.9, below NCCL EP's gate")), named.toString());
  }

  @Test
  void aFifoOrALinkLoopAmongTheFloorsIsNeverOpened() throws Exception {
    Path folder = Files.createDirectories(temp.resolve("floors"));
    Path fifo = folder.resolve("libfifo.so.1");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
    assertTrue(mkfifo.waitFor(30, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo is needed");
    Files.createSymbolicLink(folder.resolve("libloop.so.1"), folder.resolve("libloop.so.2"));
    Files.createSymbolicLink(folder.resolve("libloop.so.2"), folder.resolve("libloop.so.1"));
    Files.copy(StandIns.ncclLibDir().resolve("libnccl.so." + StandIns.NCCL_RELEASE), folder.resolve("libnccl.so.2"));
    Path te = StandIns.defect(Defect.TE_CALLS_WINDOW_REGISTER);
    // In a folder both are skipped, the NCCL beside them is the floor; named by itself the FIFO is an error.
    assertEquals(List.of(), atLeast(Severity.WARNING, run(List.of(folder), SubjectFile.onDisk(TE, te))));
    List<Finding> named = atLeast(Severity.WARNING, run(List.of(fifo, folder), SubjectFile.onDisk(TE, te)));
    assertEquals(1, named.size(), named.toString());
    assertTrue(named.get(0).found().startsWith("a library that cannot be read (" + fifo + " is not a regular file"
        + " (a FIFO)"), named.get(0).found());
  }
  // --- issue 31: glibc's rules on generated floors (FloorSpace), each verdict beside the forked dlopen's

  private static final List<String> FEW = List.of("GLOBAL HIDDEN DEFINED FUNC NONE",
      "GLOBAL DEFAULT DEFINED FUNC MISSING_NODE", "GLOBAL DEFAULT DEFINED FUNC HIDDEN_3",
      "GLOBAL DEFAULT ABS OBJECT NONE", "GLOBAL DEFAULT DEFINED OBJECT NONE");
  @TempDir static Path spaceDir;
  private static FloorSpace few;

  private static synchronized FloorSpace few() throws Exception {
    if (few == null) {
      List<FloorSpace.Definition> wanted = FEW.stream().map(FloorSpace.Definition::parse).toList();
      few = FloorSpace.build(spaceDir.resolve("few"), wanted::contains);
    }
    return few;
  }

  /** SYMBOL-FLOOR's warnings and errors on a generated case, the floor and the fallback as the floors. */
  private static List<Finding> judged(FloorSpace.Case c) {
    return atLeast(Severity.WARNING, run(List.of(c.floor(), c.fallback()), SubjectFile.onDisk("libref.so",
        c.referencing())));
  }

  /** The one finding SYMBOL-FLOOR makes, after checking it is glibc's kind (SymbolFloorGlibcSpaceTest). */
  private static Finding theFinding(FloorSpace.Case c) {
    List<Finding> findings = judged(c);
    assertEquals(1, findings.size(), c + ": " + findings);
    assertEquals(Severity.ERROR, findings.get(0).severity());
    String expected = SymbolFloorGlibcSpaceTest.expected(c);
    assertTrue(!expected.isEmpty() && findings.get(0).found().startsWith(expected), c + "\n glibc: " + c.glibc()
        + "\n found: " + findings.get(0).found());
    return findings.get(0);
  }

  @Test
  void aHiddenFloorDefinitionDefinesNothingSoTheImportIsAnError() throws Exception {
    FloorSpace.Case c = few().find("GLOBAL HIDDEN DEFINED FUNC NONE", FloorSpace.Reference.UNVERSIONED, false);
    Finding f = theFinding(c);
    assertTrue(f.found().endsWith("(glibc binds none of what they have: " + c.floor() + " has " + c.symbol()
        + ", which has HIDDEN visibility, local to libfloor.so)"), f.found());
  }

  @Test
  void anUnversionedImportIsHeldToAFloorWithVersionDefinitionsAsGlibcHoldsIt() throws Exception {
    FloorSpace.Case c = few().find("GLOBAL DEFAULT DEFINED FUNC HIDDEN_3", FloorSpace.Reference.UNVERSIONED, false);
    Finding f = theFinding(c);
    assertTrue(f.found().contains(c.floor() + " has " + c.symbol() + "@V2, which is a hidden version above index 2,"
        + " which an unversioned reference does not bind"), f.found());
  }

  @Test
  void anAbsoluteDefinitionOfValueZeroDefinesTheSymbol() throws Exception {
    FloorSpace.Case c = few().find("GLOBAL DEFAULT ABS OBJECT NONE", FloorSpace.Reference.UNVERSIONED, false);
    assertEquals(List.of(), judged(c));
    assertEquals("ok 0", c.glibc().toString(), "glibc binds it, to 0");
  }

  @Test
  void aVersionedImportOfAFloorWithoutAnyVersioningIsAnErrorForGlibcBefore241() throws Exception {
    FloorSpace.Case c = few().find("GLOBAL DEFAULT DEFINED OBJECT NONE", FloorSpace.Reference.VERSIONED, true);
    Finding f = theFinding(c);
    assertTrue(f.found().endsWith("glibc before 2.41 aborts the process binding a versioned import to the very file"
        + " its version need names (an assertion in dl-lookup.c), as libref.so loads"), f.found());
  }

  @Test
  void aVersionTheFloorLacksIsItsOwnErrorNamingTheFloorForALazilyBoundLibraryToo() throws Exception {
    FloorSpace.Case c = few().find("GLOBAL DEFAULT DEFINED FUNC MISSING_NODE", FloorSpace.Reference.VERSIONED, true);
    Finding f = theFinding(c);
    String missing = "version V1 (needed from libfloor.so by " + c.symbol() + "), which the floor " + c.floor()
        + " does not define (its versions: libfloor.so, V2): glibc refuses to load libref.so (version `V1' not"
        + " found), lazily bound or not";
    assertEquals(missing, f.found());
    // The same import linked without -z now: still an error, and glibc's RTLD_LAZY refuses it too.
    Path dir = c.referencing().getParent();
    Path lazy = dir.resolve("lazy-" + c.referencing().getFileName());
    dev.tewheel.standins.Gcc.run(dir, List.of("-shared", "-nostdlib", "-o", lazy.toString(), "ref-"
        + c.symbol().substring(3) + ".o", "-L.", "-Wl,--no-as-needed", "-l:libfloor-v1.so", "-l:libfallback.so",
        "-Wl,-soname,libref.so"));
    List<Finding> findings = atLeast(Severity.WARNING, run(List.of(c.floor(), c.fallback()),
        SubjectFile.onDisk("libref.so", lazy)));
    assertEquals(List.of(missing), findings.stream().map(Finding::found).toList());
    assertEquals(Severity.ERROR, findings.get(0).severity());
    Path found = Files.createDirectories(temp.resolve("lazy-floors"));
    Files.copy(c.floor(), found.resolve(FloorSpace.FLOOR));
    Files.copy(c.fallback(), found.resolve(FloorSpace.FALLBACK));
    assertEquals(false, glibcLoads(lazy, List.of(found), true));
  }
}
