package dev.tewheel.core.assemble;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.bundle.manifest.ManifestEntry;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.standins.StandIns.Defect;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class AssemblerTest {
  private static final FileTime EPOCH_2026 = FileTime.from(Instant.parse("2026-01-01T00:00:00Z"));

  @TempDir Path temp;
  private final List<String> log = new ArrayList<>();

  private AssembleResult assemble(AssembleRequest request) throws AssembleException {
    return new Assembler(log::add).assemble(request);
  }

  private AssembleRequest good(Path out) {
    return AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(), out).withTimestamp(EPOCH_2026);
  }

  @Test
  void laysOutTheDefaultTreeWithOneRealEpLibraryAndAManifest() throws Exception {
    Path out = temp.resolve("wheel_lib");
    AssembleResult result = assemble(good(out));

    assertEquals(Files.size(StandIns.ncclEpLibrary()), Files.size(out.resolve("libnccl_ep.so")));
    assertFalse(Files.isSymbolicLink(out.resolve("libnccl_ep.so")));
    assertTrue(Files.isRegularFile(out.resolve("nccl_ep/include/nccl_ep/device/ll_ep.cuh")));
    assertTrue(Files.isRegularFile(out.resolve("nccl_ep/include/nccl_ep/config.h")));
    try (Stream<Path> libs = Files.list(out)) {
      assertEquals(List.of("libnccl_ep.so", "libtransformer_engine.so", "nccl_ep", "te-wheel-lib.json"),
          libs.map(p -> p.getFileName().toString()).sorted().toList(), "one EP file, never three");
    }
    Manifest manifest = Manifest.read(out.resolve(Layout.MANIFEST));
    assertEquals(result.manifest(), manifest);
    ManifestEntry ep = manifest.ncclEpLibrary().orElseThrow();
    assertEquals("libnccl_ep.so.0", ep.soname());
    assertEquals(0, ep.major());
    assertEquals("0.1.0", ep.version());
    assertEquals(dev.tewheel.bundle.io.Sha256.hex(dev.tewheel.bundle.io.Sha256.of(StandIns.ncclEpLibrary())), ep.sha256());
    assertEquals("nccl_ep", manifest.ncclEpHome());
    assertEquals(13, manifest.headers().size(), manifest.headers().toString());
    assertEquals("rwxr-xr-x", PosixFilePermissions.toString(Files.getPosixFilePermissions(out.resolve("libnccl_ep.so"))));
    assertEquals("rw-r--r--", PosixFilePermissions.toString(
        Files.getPosixFilePermissions(out.resolve("nccl_ep/include/nccl_ep.h"))));
    assertEquals(EPOCH_2026, Files.getLastModifiedTime(out.resolve("libtransformer_engine.so")));
    // Only the warning that config.h names the build machine's folders (the runtime sets NCCL_EP_HOME), besides
    // SYMBOL-FLOOR's info that no floor libraries were given.
    assertEquals(List.of("BAKED-BUILD-PATHS", "SYMBOL-FLOOR"), result.findings().stream().map(Finding::checkId)
        .distinct().toList());
    // config.h's three generated paths, as NCCL EP's Makefile writes them.
    assertEquals(List.of(":2", ":3", ":4"), result.findings().stream()
        .filter(f -> !f.checkId().equals("SYMBOL-FLOOR"))
        .map(f -> ":" + f.line()).toList(), result.findings().toString());
    assertTrue(result.findings().get(0).location().endsWith("nccl_ep/include/nccl_ep/config.h:2"), result.findings().toString());
  }

  @Test
  void epHomeLayoutPutsTheLibraryUnderLibWithItsMajor() throws Exception {
    Path out = temp.resolve("wheel_lib");
    AssembleResult result = assemble(good(out).withLayout(Layout.EP_HOME));
    assertTrue(Files.isRegularFile(out.resolve("nccl_ep/lib/libnccl_ep.so.0")));
    assertTrue(Files.isRegularFile(out.resolve("nccl_ep/include/nccl_ep.h")));
    assertEquals("ep-home", result.manifest().layout());
    assertEquals("nccl_ep/lib/libnccl_ep.so.0", result.manifest().ncclEpLibrary().orElseThrow().path());
  }

  @Test
  void withoutNcclEpHomeOnlyTheTeLibraryShips() throws Exception {
    Path out = temp.resolve("wheel_lib");
    AssembleResult result = assemble(AssembleRequest.of(StandIns.transformerEngine(), null, out));
    assertEquals(List.of("libtransformer_engine.so"), result.manifest().files().stream().map(ManifestEntry::path).toList());
    assertEquals(null, result.manifest().ncclEpHome());
  }

  @Test
  void everyDefectiveStandInStopsTheRunWithItsCheckAndWritesNothing() throws Exception {
    Map<String, AssembleRequest> cases = new TreeMap<>();
    Path out = temp.resolve("wheel_lib");
    cases.put("TE-BIND-NOW", AssembleRequest.of(StandIns.defect(Defect.TE_LAZY_BINDING), StandIns.ncclEpHome(), out));
    cases.put("TE-FORBIDDEN-NEEDED/libnccl_ep.so.0",
        AssembleRequest.of(StandIns.defect(Defect.TE_NEEDS_NCCL_EP), StandIns.ncclEpHome(), out));
    cases.put("TE-FORBIDDEN-NEEDED/libcuda.so.1",
        AssembleRequest.of(StandIns.defect(Defect.TE_NEEDS_CUDA), StandIns.ncclEpHome(), out));
    cases.put("TE-UNDEFINED-NCCL-EP",
        AssembleRequest.of(StandIns.defect(Defect.TE_UNDEFINED_NCCL_EP_SYMBOL), StandIns.ncclEpHome(), out));
    cases.put("EP-SONAME", AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(), out)
        .withChecks(dev.tewheel.core.check.CheckSettings.defaults().withNcclEpMajor(1)));
    cases.put("EP-NO-RUNPATH/RUNPATH /opt/nccl/lib", AssembleRequest.of(StandIns.transformerEngine(),
        StandIns.defect(Defect.NCCL_EP_ABSOLUTE_RUNPATH).getParent().getParent(), out));
    cases.put("HEADERS-SELF-CONTAINED", AssembleRequest.of(StandIns.transformerEngine(),
        StandIns.defect(Defect.INCLUDE_MISSING_HEADER).getParent(), out));
    cases.put("ELF-ONE-MACHINE",
        AssembleRequest.of(StandIns.aarch64("libtransformer_engine.so"), StandIns.ncclEpHome(), out));
    for (Map.Entry<String, AssembleRequest> c : cases.entrySet()) {
      AssembleException e = assertThrows(AssembleException.class, () -> assemble(c.getValue()), c.getKey());
      String id = c.getKey().split("/")[0];
      assertTrue(e.findings().stream().anyMatch(f -> f.checkId().equals(id)), c.getKey() + ": " + e.getMessage());
      if (c.getKey().contains("/")) {
        assertTrue(e.getMessage().contains(c.getKey().split("/")[1]), e.getMessage());
      }
      assertTrue(e.getMessage().contains("nothing was written"), e.getMessage());
      assertFalse(Files.exists(out), c.getKey() + " wrote " + out);
    }
  }

  @Test
  void aLazyTeLibraryIsExplainedWithFileFoundExpectedAndFix() {
    AssembleException e = assertThrows(AssembleException.class, () -> assemble(
        AssembleRequest.of(StandIns.defect(Defect.TE_LAZY_BINDING), null, temp.resolve("w"))));
    Finding finding = e.findings().get(0);
    assertEquals(StandIns.defect(Defect.TE_LAZY_BINDING).toString(), finding.file());
    assertTrue(finding.found().startsWith("lazy binding"), finding.found());
    assertEquals("link libtransformer_engine.so with -Wl,-z,now", finding.fix());
  }

  @Test
  void anEpBuildOfAnotherMajorFailsOnItsSoname() throws Exception {
    Path home = copyTree(StandIns.defect(Defect.NCCL_EP_MAJOR_1_HOME).resolve("lib"), temp.resolve("ep1/lib")).getParent();
    copyTree(StandIns.ncclEpHome().resolve("include"), home.resolve("include")); // header says 0, library says 1
    AssembleException e = assertThrows(AssembleException.class,
        () -> assemble(AssembleRequest.of(StandIns.transformerEngine(), home, temp.resolve("w"))));
    assertTrue(e.getMessage().contains("[ERROR EP-SONAME]") && e.getMessage().contains("SONAME libnccl_ep.so.1")
        && e.getMessage().contains("expected SONAME libnccl_ep.so.0"), e.getMessage());
    assertTrue(e.getMessage().contains("[ERROR EP-FILE-VERSION]"), e.getMessage());
  }

  @Test
  void aMissingHeaderFailsWithTheIncludeChain() throws Exception {
    Path home = StandIns.defect(Defect.INCLUDE_MISSING_HEADER).getParent();
    AssembleException e = assertThrows(AssembleException.class,
        () -> assemble(AssembleRequest.of(StandIns.transformerEngine(), home, temp.resolve("w"))));
    // Both headers that include it, as in NCCL EP's tree: device/ll_ep.cuh and device/ll_ep_adapter.cuh.
    assertTrue(e.getMessage().contains("[ERROR HEADERS-SELF-CONTAINED]")
        && e.getMessage().contains("nccl_ep/device/ll_ep.cuh:9: found #include \"ll_ep_smem.cuh\"")
        && e.getMessage().contains("nccl_ep/device/ll_ep_adapter.cuh:11: found #include \"ll_ep_smem.cuh\"")
        && e.getMessage().contains("reached through nccl_ep/device/ll_ep_adapter.cuh"), e.getMessage());
  }

  @Test
  void aDanglingOrEscapingSymlinkNamesTheLinkAndItsTarget() throws Exception {
    Path home = copyTree(StandIns.ncclEpHome(), temp.resolve("ep"));
    Files.delete(home.resolve("lib/libnccl_ep.so.0.1.0"));
    AssembleException dangling = assertThrows(AssembleException.class,
        () -> assemble(AssembleRequest.of(StandIns.transformerEngine(), home, temp.resolve("w"))));
    assertTrue(dangling.getMessage().contains("libnccl_ep.so.0 -> libnccl_ep.so.0.1.0 dangles"), dangling.getMessage());

    Files.delete(home.resolve("lib/libnccl_ep.so.0"));
    Files.createSymbolicLink(home.resolve("lib/libnccl_ep.so.0"), StandIns.ncclEpLibrary());
    AssembleException outside = assertThrows(AssembleException.class,
        () -> assemble(AssembleRequest.of(StandIns.transformerEngine(), home, temp.resolve("w"))));
    assertTrue(outside.getMessage().contains("points outside ncclEpHome"), outside.getMessage());

    Files.delete(home.resolve("lib/libnccl_ep.so.0"));
    Files.createSymbolicLink(home.resolve("lib/libnccl_ep.so.0"), Path.of("libnccl_ep.so"));
    AssembleException loop = assertThrows(AssembleException.class,
        () -> assemble(AssembleRequest.of(StandIns.transformerEngine(), home, temp.resolve("w"))));
    assertTrue(loop.getMessage().contains("loops"), loop.getMessage());
    assertFalse(Files.exists(temp.resolve("w")));
  }

  @Test
  void anUnchangedRerunCopiesNothingAndAChangedInputIsCopiedAgain() throws Exception {
    Path home = copyTree(StandIns.ncclEpHome(), temp.resolve("ep"));
    Path out = temp.resolve("wheel_lib");
    AssembleRequest request = AssembleRequest.of(StandIns.transformerEngine(), home, out).withTimestamp(EPOCH_2026);
    AssembleResult first = assemble(request);
    assertEquals(15, first.copied().size());

    AssembleResult again = assemble(request);
    assertTrue(again.nothingChanged(), again.toString());
    assertEquals(15, again.upToDate().size());

    Path header = home.resolve("include/nccl_ep/device/macros.cuh");
    Files.writeString(header, Files.readString(header) + "#define EP_CHANGED 1\n");
    Files.setLastModifiedTime(header, FileTime.from(Instant.now().plusSeconds(5)));
    Files.delete(home.resolve("include/nccl_ep/device/scan_kernel.cuh"));
    Files.writeString(home.resolve("include/nccl_ep/device/ht_ep.cuh"),
        Files.readString(home.resolve("include/nccl_ep/device/ht_ep.cuh")).replace("#include \"scan_kernel.cuh\"\n", ""));
    AssembleResult third = assemble(request);
    assertEquals(List.of("nccl_ep/include/nccl_ep/device/ht_ep.cuh", "nccl_ep/include/nccl_ep/device/macros.cuh"),
        third.copied().stream().sorted().toList());
    assertEquals(List.of("nccl_ep/include/nccl_ep/device/scan_kernel.cuh"), third.removed());
    assertTrue(Files.readString(out.resolve("nccl_ep/include/nccl_ep/device/macros.cuh")).contains("EP_CHANGED"));
    assertFalse(Files.exists(out.resolve("nccl_ep/include/nccl_ep/device/scan_kernel.cuh")));
    assertEquals(Manifest.read(out.resolve(Layout.MANIFEST)), third.manifest());
  }

  @Test
  void theSameInputsGiveAByteIdenticalTree() throws Exception {
    Path a = temp.resolve("a/wheel_lib");
    Path b = temp.resolve("b/wheel_lib");
    assemble(good(a));
    assemble(good(b));
    Map<String, byte[]> left = contents(a);
    Map<String, byte[]> right = contents(b);
    assertEquals(left.keySet(), right.keySet());
    for (String path : left.keySet()) {
      assertArrayEquals(left.get(path), right.get(path), path);
      assertEquals(Files.getLastModifiedTime(a.resolve(path)), Files.getLastModifiedTime(b.resolve(path)), path);
    }
  }

  @Test
  void leftoversOfAnInterruptedRunAreCleanedAndThePreviousTreeSurvives() throws Exception {
    Path out = temp.resolve("wheel_lib");
    assemble(good(out));
    byte[] manifestBefore = Files.readAllBytes(out.resolve(Layout.MANIFEST));
    // What a kill in the middle of a copy leaves: a half-written staging folder beside the tree.
    Path staging = Files.createDirectories(temp.resolve(".wheel_lib.staging-123"));
    Files.write(staging.resolve("libnccl_ep.so"), new byte[100]);
    assertArrayEquals(manifestBefore, Files.readAllBytes(out.resolve(Layout.MANIFEST)));

    assemble(good(out).withLayout(Layout.EP_HOME));
    assertFalse(Files.exists(staging));
    assertTrue(log.stream().anyMatch(l -> l.contains("left by an interrupted run")), log.toString());
    assertTrue(Files.isRegularFile(out.resolve("nccl_ep/lib/libnccl_ep.so.0")));

    // A kill between the two renames of the swap: the old tree is put back.
    Files.move(out, temp.resolve(".wheel_lib.old-77"));
    assemble(good(out).withLayout(Layout.EP_HOME));
    assertTrue(log.stream().anyMatch(l -> l.contains("restored")), log.toString());
    assertTrue(Files.isRegularFile(out.resolve("nccl_ep/lib/libnccl_ep.so.0")));
  }

  @Test
  void aFolderAssembleDidNotWriteIsRefusedNamingTheFilesItWouldRemove() throws Exception {
    Path out = Files.createDirectories(temp.resolve("wheel_lib/notes"));
    Files.writeString(out.resolveSibling("README.txt"), "mine");
    Files.writeString(out.resolve("todo.md"), "mine too");
    Files.createDirectories(temp.resolve("wheel_lib/empty"));
    Map<String, byte[]> before = contents(temp.resolve("wheel_lib"));

    AssembleException e = assertThrows(AssembleException.class, () -> assemble(good(temp.resolve("wheel_lib"))));
    assertTrue(e.getMessage().contains("outputDirectory " + temp.resolve("wheel_lib") + " holds 3 files and no"
        + " manifest te-wheel-lib.json, so assemble did not write them: README.txt, empty/, notes/todo.md."),
        e.getMessage());
    assertTrue(e.getMessage().contains("nothing was changed. Move them out of"), e.getMessage());
    assertEquals(before.keySet(), contents(temp.resolve("wheel_lib")).keySet());
    assertEquals("mine too", Files.readString(out.resolve("todo.md")));
    assertTrue(Files.isDirectory(temp.resolve("wheel_lib/empty")));
  }

  @Test
  void inputsInsideTheOutputFolderAreNeverDestroyed() throws Exception {
    // The case: NCCL EP's build and TE's library sitting in outputDirectory.
    Path out = temp.resolve("wheel_lib");
    Path home = copyTree(StandIns.ncclEpHome(), out.resolve("nccl_ep_build"));
    Path te = Files.copy(StandIns.transformerEngine(), out.resolve("libtransformer_engine.so"));
    Map<String, byte[]> before = contents(out);

    AssembleException e = assertThrows(AssembleException.class, () -> assemble(AssembleRequest.of(te, home, out)));
    assertTrue(e.getMessage().startsWith("transformerEngineLibrary " + te + " lies inside outputDirectory " + out),
        e.getMessage());
    assertEquals(before.keySet(), contents(out).keySet());

    // Also inside a folder assemble wrote, where every other file is its own.
    Path own = temp.resolve("own/wheel_lib");
    assemble(good(own));
    Path ep = copyTree(StandIns.ncclEpHome(), own.resolve("nccl_ep/build"));
    AssembleException inside = assertThrows(AssembleException.class,
        () -> assemble(AssembleRequest.of(StandIns.transformerEngine(), ep, own)));
    assertTrue(inside.getMessage().startsWith("ncclEpHome " + ep + " lies inside outputDirectory " + own),
        inside.getMessage());
    assertTrue(Files.isRegularFile(ep.resolve("lib/libnccl_ep.so.0.1.0")));
  }

  @Test
  void filesAUserAddedToAnAssembledFolderStopTheRerunAndSurvive() throws Exception {
    Path out = temp.resolve("wheel_lib");
    assemble(good(out));
    Path mine = Files.writeString(out.resolve("nccl_ep/include/nccl_ep/my_kernel.cuh"), "// mine\n");

    for (AssembleRequest rerun : List.of(good(out), good(out).withLayout(Layout.EP_HOME))) {
      AssembleException e = assertThrows(AssembleException.class, () -> assemble(rerun));
      assertTrue(e.getMessage().contains("holds 1 file that its manifest te-wheel-lib.json does not list:"
          + " nccl_ep/include/nccl_ep/my_kernel.cuh."), e.getMessage());
      assertEquals("// mine\n", Files.readString(mine));
    }
    // Once the user's file is gone, re-running over its own output works again.
    Files.delete(mine);
    assertTrue(assemble(good(out)).nothingChanged());
    assertTrue(Files.isRegularFile(assemble(good(out).withLayout(Layout.EP_HOME)).outputDirectory()
        .resolve("nccl_ep/lib/libnccl_ep.so.0")));
  }

  @Test
  void anEmptyOutputFolderIsFilled() throws Exception {
    Path out = Files.createDirectories(temp.resolve("wheel_lib"));
    assemble(good(out));
    assertTrue(Files.isRegularFile(out.resolve(Layout.MANIFEST)));
  }

  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void folderLinksBackUpTheIncludeTreeFailNamingTheLinkInsteadOfHanging() throws Exception {
    Path home = copyTree(StandIns.ncclEpHome(), temp.resolve("ep"));
    Files.createSymbolicLink(home.resolve("include/nccl_ep/device/up"), Path.of(".."));
    Files.createSymbolicLink(home.resolve("include/nccl_ep/device/top"), Path.of("../.."));
    AssembleException e = assertThrows(AssembleException.class,
        () -> assemble(AssembleRequest.of(StandIns.transformerEngine(), home, temp.resolve("w"))));
    assertTrue(e.getMessage().startsWith("symlink " + home.resolve("include/nccl_ep/device/top") + " -> ../.. leads"
        + " back to " + home.resolve("include")), e.getMessage());
    assertFalse(Files.exists(temp.resolve("w")));
  }

  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aFifoAmongTheInputsIsRefusedWithoutBeingOpened() throws Exception {
    Path home = copyTree(StandIns.ncclEpHome(), temp.resolve("ep"));
    Path header = mkfifo(home.resolve("include/nccl_ep/device/extra.cuh"));
    AssembleException e = assertThrows(AssembleException.class,
        () -> assemble(AssembleRequest.of(StandIns.transformerEngine(), home, temp.resolve("w"))));
    assertTrue(e.getMessage().startsWith(header + " is a FIFO, not a regular file"), e.getMessage());

    Files.delete(header);
    Path library = mkfifo(home.resolve("lib/libnccl_ep.so.0.9.9"));
    AssembleException lib = assertThrows(AssembleException.class,
        () -> assemble(AssembleRequest.of(StandIns.transformerEngine(), home, temp.resolve("w"))));
    assertTrue(lib.getMessage().startsWith(library + " is a FIFO, not a regular file"), lib.getMessage());

    Path te = mkfifo(temp.resolve("te/libtransformer_engine.so"));
    AssembleException teFifo = assertThrows(AssembleException.class,
        () -> assemble(AssembleRequest.of(te, StandIns.ncclEpHome(), temp.resolve("w"))));
    assertTrue(teFifo.getMessage().startsWith("transformerEngineLibrary " + te + " is a FIFO, not a regular file"),
        teFifo.getMessage());
    assertFalse(Files.exists(temp.resolve("w")));
  }

  /** A named pipe, made by mkfifo(1): opening it for reading would block until a writer comes. */
  static Path mkfifo(Path path) throws Exception {
    Files.createDirectories(path.getParent());
    Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    assertEquals(0, mkfifo.waitFor(), "mkfifo " + path);
    return path;
  }

  static Map<String, byte[]> contents(Path root) throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        files.put(root.relativize(p).toString(), Files.readAllBytes(p));
      }
    }
    return files;
  }

  /** Copies a tree, symlinks as symlinks. */
  static Path copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path source : walk.toList()) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isSymbolicLink(source)) {
          Files.createDirectories(target.getParent());
          Files.createSymbolicLink(target, Files.readSymbolicLink(source));
        } else if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          Files.createDirectories(target.getParent());
          Files.copy(source, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
    return to;
  }

  @Test
  void layoutAnyIsForVerifyAndDiffNotForAssembly() throws Exception {
    AssembleRequest request = AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(),
        temp.resolve("any/wheel_lib"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> request.withLayout(Layout.ANY));
    assertTrue(e.getMessage().contains("layout 'any' is for verify-wheel-lib, diff-wheel and pack-wheel"), e.getMessage());
    assertFalse(Files.exists(temp.resolve("any")));
  }
}
