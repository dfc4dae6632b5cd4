package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.cli.Main;
import dev.tewheel.runtime.error.LoadException;
import dev.tewheel.runtime.internal.host.LiveLoader;
import dev.tewheel.runtime.report.Availability;
import dev.tewheel.runtime.report.LoadPrediction;
import dev.tewheel.runtime.report.NativeWorld;
import dev.tewheel.runtime.report.NcclVersion;
import dev.tewheel.runtime.te.TransformerEngine;
import dev.tewheel.standins.FloorSpace;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * te-runtime predicts, before dlopen, whether every symbol TE (BIND_NOW) or NCCL EP imports would bind to the
 * libraries that would really bind, and refuses instead of opening a library glibc would refuse (docs/runtime.md,
 * "The load prediction"). The stand-in TE built against NCCL 2.30.4 calls ncclCommWindowRegister, which NCCL 2.21.5
 * lacks; glibc's verdict on the same files is SymbolScopeTest's.
 */
@Timeout(300)
class LoadPredictionTest {
  private static final Path OLDEST_NCCL = StandIns.oldestNcclLibDir().resolve("libnccl.so.2");
  /** The CUDA libraries the stand-ins do not need are skipped, so no toolkit of the machine takes part. */
  private static final List<String> JVM_ARGS = ChildJvm.withoutCudaLibraries(List.of());

  @TempDir Path temp;

  @Test
  void aBindNowTeWhoseNcclLacksWhatItCallsIsRefusedWithoutBeingOpened() throws Exception {
    FreshJvm.run(getClass(), "refusedUnopened", temp, Map.of(), JVM_ARGS);
  }

  @Test
  void theSameTeLoadsOnNccl2304() throws Exception {
    FreshJvm.run(getClass(), "loadsOnNewNccl", temp, Map.of(), JVM_ARGS);
  }

  @Test
  void aLazyTeLoadsAndTheReportWarnsOfItsFirstCall() throws Exception {
    FreshJvm.run(getClass(), "lazyWarns", temp, Map.of(), JVM_ARGS);
  }

  @Test
  void ncclEpIsUnavailableWhenItsNcclLacksWhatItImportsEvenWithTheGateLowered() throws Exception {
    FreshJvm.run(getClass(), "ncclEpUnbound", temp, Map.of(), JVM_ARGS);
  }

  @Test
  void aPredictionIsMadeAgainWhenALibraryOfItsScopeIsReplaced() throws Exception {
    FreshJvm.run(getClass(), "replacedNccl", temp, Map.of(), JVM_ARGS);
  }

  @Test
  void importsOnlyALibraryNotFoundCouldDefineAreLeftUnjudgedAndDlopenNamesIt() throws Exception {
    // No LD_LIBRARY_PATH: the stand-in CUDA driver is not found, as on a machine without one.
    FreshJvm.run(getClass(), "missingDriver", temp, Map.of("LD_LIBRARY_PATH", ""), JVM_ARGS);
  }

  @Test
  void aVersionedCudartImportMissingFromTheCudartFoundMakesTheCliExitNonZeroAndLoadDoesNotCrash() throws Exception {
    // cuda13-probe.so: -z now, NEEDS libcudart.so.13 and libcublasLt.so.13 with versioned imports; the older cudart
    // on LD_LIBRARY_PATH lacks one. NCCL EP is available, so only the TE prediction can fail the run.
    Path wheelLib = wheelLib(temp.resolve("wheel_lib"), StandIns.root().resolve("checks/cuda13-probe.so"));
    String path = StandIns.oldCudartLibDir() + ":" + StandIns.cublasLtLibDir() + ":" + StandIns.cudaLibDir();
    String expected = "libtransformer_engine.so would not load: " + StandIns.CUDART_LACKING
        + "@libcudart.so.13 (needed from libcudart.so.13) is not defined by "
        + StandIns.oldCudartLibDir().resolve("libcudart.so.13").toRealPath();
    for (List<String> extra : List.of(List.<String>of(), List.of("--load"))) {
      List<String> args = new java.util.ArrayList<>(List.of("--wheel-lib", wheelLib.toString(), "--nccl-library",
          Bundles.NCCL.toString()));
      args.addAll(extra);
      List<String> jvm = new java.util.ArrayList<>(JVM_ARGS);
      jvm.add("--enable-native-access=ALL-UNNAMED");
      Path logs = temp.resolve("logs-cli" + extra.size());
      ChildJvm.Result result = ChildJvm.run(ChildJvm.command(jvm, null, Main.class, args),
          Map.of("LD_LIBRARY_PATH", path), logs);
      assertEquals(1, result.exit(), result.toString());
      assertTrue(result.out().contains("Available: yes"), result.toString());
      assertTrue(result.out().contains("PROBLEM: " + expected), result.toString());
      if (!extra.isEmpty()) {
        assertTrue(result.out().contains("Could not load libtransformer_engine.so: " + expected), result.toString());
        assertTrue(result.out().contains("Loaded NCCL EP 0.1.0"), result.toString());
      }
      try (Stream<Path> files = Files.list(logs.getParent())) {
        assertEquals(List.of(), files.filter(f -> f.getFileName().toString().startsWith("hs_err")).toList());
      }
      assertFalse(result.err().contains("fatal error"), result.toString());
    }
  }

  /** A default-layout wheel_lib whose libtransformer_engine.so is {@code te}. */
  static Path wheelLib(Path folder, Path te) throws IOException {
    Bundles.defaultLayout(folder);
    Files.copy(te, folder.resolve("libtransformer_engine.so"), StandardCopyOption.REPLACE_EXISTING);
    return folder;
  }

  private static String windowFunctionsMissingFrom(Path nccl) throws IOException {
    return "(needed from libnccl.so.2) are not defined by " + nccl.toRealPath() + " (NCCL 2.21.5)";
  }

  static void refusedUnopened(Path temp) throws Throwable {
    Path wheelLib = wheelLib(temp.resolve("wheel_lib"), StandIns.defect(StandIns.Defect.TE_CALLS_WINDOW_REGISTER));
    TeRuntime runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(OLDEST_NCCL).build();
    NativeWorld world = runtime.nativeWorld();
    assertFalse(world.ok(), world.toString());
    LoadException refused = assertThrows(LoadException.class, runtime::loadTransformerEngine);
    String message = refused.getMessage();
    assertTrue(message.startsWith("libtransformer_engine.so would not load: "), message);
    assertTrue(message.contains("ncclCommWindowRegister"), message);
    assertTrue(message.contains("ncclCommWindowDeregister"), message);
    assertTrue(message.contains(windowFunctionsMissingFrom(OLDEST_NCCL)), message);
    assertTrue(message.contains("Use a libnccl.so.2 that defines them"), message);
    // Never opened: not mapped.
    assertEquals(List.of(), TeEpSequenceTest.mapped(wheelLib.toString()));
    LoadPrediction prediction = world.transformerEngine().orElseThrow();
    assertTrue(prediction.bindNow());
    assertEquals(List.of("ncclCommWindowDeregister", "ncclCommWindowRegister"),
        prediction.unresolved().stream().sorted().toList());
    assertEquals(List.of(), prediction.unchecked());
    assertEquals(message, prediction.detail());
  }

  static void loadsOnNewNccl(Path temp) throws Throwable {
    Path wheelLib = wheelLib(temp.resolve("wheel_lib"), StandIns.defect(StandIns.Defect.TE_CALLS_WINDOW_REGISTER));
    TeRuntime runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build();
    NativeWorld world = runtime.nativeWorld();
    assertTrue(world.ok(), world.toString());
    assertEquals(List.of(), world.transformerEngine().orElseThrow().unresolved());
    TransformerEngine te = runtime.loadTransformerEngine();
    assertEquals(wheelLib.resolve("libtransformer_engine.so"), te.file());
    assertEquals(List.of(wheelLib.resolve("libtransformer_engine.so").toString()),
        TeEpSequenceTest.mapped(wheelLib.toString()));
  }

  static void lazyWarns(Path temp) throws Throwable {
    Path wheelLib = wheelLib(temp.resolve("wheel_lib"),
        StandIns.defect(StandIns.Defect.TE_CALLS_WINDOW_REGISTER_LAZY));
    TeRuntime runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(OLDEST_NCCL).build();
    NativeWorld world = runtime.nativeWorld();
    LoadPrediction prediction = world.transformerEngine().orElseThrow();
    assertFalse(prediction.bindNow());
    assertTrue(prediction.loads());
    assertTrue(world.ok(), world.toString());
    assertTrue(prediction.detail().startsWith("libtransformer_engine.so is lazily bound, so it loads, but the first"
        + " call of a function named here ends the process: "), prediction.detail());
    assertTrue(prediction.detail().contains(windowFunctionsMissingFrom(OLDEST_NCCL)), prediction.detail());
    // It does load, as glibc and TE's own ctypes load it.
    TransformerEngine te = runtime.loadTransformerEngine();
    assertEquals(wheelLib.resolve("libtransformer_engine.so"), te.file());
  }

  static void replacedNccl(Path temp) throws Throwable {
    Path wheelLib = wheelLib(temp.resolve("wheel_lib"), StandIns.defect(StandIns.Defect.TE_CALLS_WINDOW_REGISTER));
    Path nccl = Files.createDirectories(temp.resolve("nccl")).resolve("libnccl.so.2");
    Files.copy(OLDEST_NCCL.toRealPath(), nccl);
    TeRuntime runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(nccl).build();
    assertFalse(runtime.nativeWorld().transformerEngine().orElseThrow().loads());
    assertFalse(runtime.nativeWorld().transformerEngine().orElseThrow().loads(), "the remembered answer");
    // Another file at the same path (the NCCL 2.30.4 build): the remembered answer no longer applies.
    Files.copy(Bundles.NCCL.toRealPath(), nccl, StandardCopyOption.REPLACE_EXISTING);
    LoadPrediction after = runtime.nativeWorld().transformerEngine().orElseThrow();
    assertTrue(after.loads(), after.toString());
    assertEquals(List.of(), after.unresolved());
  }

  static void missingDriver(Path temp) throws Throwable {
    Path wheelLib = wheelLib(temp.resolve("wheel_lib"), StandIns.defect(StandIns.Defect.TE_NEEDS_CUDA));
    TeRuntime runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build();
    LoadPrediction prediction = runtime.nativeWorld().transformerEngine().orElseThrow();
    assertEquals(List.of("libcuda.so.1"), prediction.unchecked(), prediction.toString());
    assertEquals(List.of(), prediction.unresolved(), "cuDriverGetVersion may be libcuda.so.1's: not judged");
    assertTrue(prediction.loads());
    LoadException refused = assertThrows(LoadException.class, runtime::loadTransformerEngine);
    assertTrue(refused.getMessage().contains("libcuda.so.1: cannot open shared object file"), refused.getMessage());
  }

  static void ncclEpUnbound(Path temp) throws Throwable {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    TeRuntime runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(OLDEST_NCCL)
        .minimumNcclVersion(NcclVersion.parse("2.21.5")).build();
    Availability availability = runtime.availability();
    assertTrue(availability.nccl().ok(), availability.toString());
    assertFalse(availability.available(), availability.toString());
    String reason = availability.reason();
    assertTrue(reason.startsWith("libnccl_ep.so.0 would not load: "), reason);
    for (String symbol : List.of("ncclCommWindowRegister", "ncclDevCommCreate", "ncclTeamLsa", "ncclWinGetUserPtr")) {
      assertTrue(reason.contains(symbol), reason);
    }
    assertTrue(reason.contains("(needed from libnccl.so.2) are not defined by " + OLDEST_NCCL.toRealPath()
        + " (NCCL 2.21.5)"), reason);
    LoadException refused = assertThrows(LoadException.class, runtime::loadNcclEp);
    assertEquals("NCCL EP is not available: " + reason, refused.getMessage());
    assertEquals(List.of(), TeEpSequenceTest.mapped("libnccl_ep"));
  }
  // --- issue 31: glibc's rules on generated floors (FloorSpace), each prediction beside the forked dlopen's

  private static final List<String> FEW = List.of("GLOBAL HIDDEN DEFINED FUNC NONE",
      "GLOBAL DEFAULT DEFINED FUNC MISSING_NODE", "GLOBAL DEFAULT ABS OBJECT NONE",
      "GLOBAL DEFAULT DEFINED OBJECT NONE");
  @TempDir static Path spaceDir;
  private static FloorSpace few;

  private static synchronized FloorSpace few() throws Exception {
    if (few == null) {
      List<FloorSpace.Definition> wanted = FEW.stream().map(FloorSpace.Definition::parse).toList();
      few = FloorSpace.build(spaceDir.resolve("few"), wanted::contains);
    }
    return few;
  }

  /** The prediction for a generated case, the floor and the fallback preloaded; read from files, nothing loaded. */
  private static LoadPrediction predicted(FloorSpace.Case c, boolean openedNow) {
    return LiveLoader.predict(c.referencing(), openedNow, Map.of(FloorSpace.FLOOR, c.floor(), FloorSpace.FALLBACK,
        c.fallback()), List.of(), Map.of()).orElseThrow();
  }

  @Test
  void aVersionThePreloadedFloorLacksIsPredictedAsAMissingVersionThatStopsEvenALazyLoad() throws Exception {
    FloorSpace.Case c = few().find("GLOBAL DEFAULT DEFINED FUNC MISSING_NODE", FloorSpace.Reference.VERSIONED, true);
    assertTrue(c.glibc().detail().contains("version `V1' not found"), c.glibc().toString());
    // The same import linked without -z now, predicted as TE is opened (RTLD_LAZY): a missing version stops it too.
    Path dir = c.referencing().getParent();
    Path lazy = dir.resolve("lazy-" + c.referencing().getFileName());
    dev.tewheel.standins.Gcc.run(dir, List.of("-shared", "-nostdlib", "-o", lazy.toString(), "ref-"
        + c.symbol().substring(3) + ".o", "-L.", "-Wl,--no-as-needed", "-l:libfloor-v1.so", "-l:libfallback.so",
        "-Wl,-soname,lib" + c.referencing().getFileName()));
    String name = "lib" + c.referencing().getFileName();
    for (Path library : List.of(c.referencing(), lazy)) {
      boolean now = library.equals(c.referencing());
      LoadPrediction p = LiveLoader.predict(library, now, Map.of(FloorSpace.FLOOR, c.floor(), FloorSpace.FALLBACK,
          c.fallback()), List.of(), Map.of()).orElseThrow();
      assertEquals(now, p.bindNow());
      assertFalse(p.loads(), p.toString());
      assertEquals(List.of("V1 (libfloor.so)"), p.missingVersions());
      assertEquals(List.of(), p.unresolved(), "the missing version accounts for its import");
      assertEquals(name + " would not load: version V1 (needed from libfloor.so by " + c.symbol() + ") is not"
          + " defined by " + c.floor().toRealPath() + " (its versions: libfloor.so, V2), so glibc refuses the load"
          + " before binding any symbol (version `V1' not found). Use a libfloor.so that defines it (a newer"
          + " release), or a " + name + " built against the one found", p.detail());
    }
  }

  @Test
  void aHiddenFloorDefinitionIsPredictedUnresolvedSayingWhy() throws Exception {
    FloorSpace.Case c = few().find("GLOBAL HIDDEN DEFINED FUNC NONE", FloorSpace.Reference.UNVERSIONED, false);
    assertTrue(c.glibc().detail().contains("undefined symbol: " + c.symbol()), c.glibc().toString());
    LoadPrediction p = predicted(c, true);
    assertEquals(List.of(c.symbol()), p.unresolved());
    assertTrue(p.detail().contains(c.symbol() + " (needed from libfloor.so) is not defined by "
        + c.floor().toRealPath() + " (glibc binds none of what it has: " + c.floor().toRealPath() + " has "
        + c.symbol() + ", which has HIDDEN visibility, local to libfloor.so)"), p.detail());
  }

  @Test
  void anAbsoluteDefinitionOfValueZeroIsPredictedToBind() throws Exception {
    FloorSpace.Case c = few().find("GLOBAL DEFAULT ABS OBJECT NONE", FloorSpace.Reference.UNVERSIONED, false);
    assertEquals("ok 0", c.glibc().toString());
    LoadPrediction p = predicted(c, true);
    assertTrue(p.loads() && p.unresolved().isEmpty(), p.toString());
  }

  @Test
  void aVersionedImportOfAFloorWithoutVersioningIsPredictedAsThisGlibcBindsIt() throws Exception {
    FloorSpace.Case c = few().find("GLOBAL DEFAULT DEFINED OBJECT NONE", FloorSpace.Reference.VERSIONED, true);
    LoadPrediction p = predicted(c, true);
    boolean aborts = c.glibc().kind().equals("exit 127");
    assertEquals(!aborts, p.loads(), c.glibc() + "\n" + p);
    if (aborts) {
      assertEquals(List.of(c.symbol() + "@V1"), p.unresolved());
      assertTrue(p.detail().contains(c.floor().toRealPath() + " has no symbol versioning at all, and this glibc"
          + " (before 2.41) aborts the process"), p.detail());
    }
  }
}
