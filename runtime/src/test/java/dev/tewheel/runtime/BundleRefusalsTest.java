package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.error.LoadException;
import dev.tewheel.runtime.nccl.Nccl;
import dev.tewheel.runtime.nccl.NcclComm;
import dev.tewheel.runtime.report.Availability;
import dev.tewheel.runtime.te.TeDataType;
import dev.tewheel.runtime.te.TeEpGroupConfig;
import dev.tewheel.runtime.te.TransformerEngine;
import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.manifest.FileKind;
import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.runtime.cli.Main;
import dev.tewheel.standins.StandIns;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What te-runtime refuses in a bundle (docs/runtime.md): a manifest that leaves the bundle or is huge, an
 * NCCL_EP_HOME whose library TE's provider would load instead of the vetted one, a TE library the manifest does not
 * vouch for, and files that are not regular (a FIFO would hang the search). Each body runs in a fresh JVM, which a
 * hang or crash cannot take the build down with.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class BundleRefusalsTest {
  @TempDir Path temp;

  @AfterEach
  void releaseFifos() throws Exception {
    // Opening a FIFO read-write never blocks and lets a reader stuck in open(2) go on.
    for (Path fifo : List.of(temp.resolve("wheel_lib/libnccl_ep.so.0.9.9"), temp.resolve("fifos/libcuda.so.1"))) {
      if (Files.exists(fifo) && !Files.isRegularFile(fifo)) {
        new RandomAccessFile(fifo.toFile(), "rw").close();
      }
    }
  }

  @Test
  void aManifestNcclEpHomeOutsideTheBundleIsRefusedAndNeverSet() throws Exception {
    FreshJvm.run(getClass(), "homeOutside", temp);
  }

  @Test
  void aUsersNcclEpHomeWhoseLibraryTheProviderWouldLoadInsteadIsRefused() throws Exception {
    FreshJvm.run(getClass(), "usersOtherLibrary", temp);
  }

  @Test
  void aTeLibraryTheManifestDoesNotListIsRefusedWhenDigestsAreVerified() throws Exception {
    FreshJvm.run(getClass(), "unlistedTe", temp);
  }

  @Test
  void aHugeSparseManifestOrANulInAPathIsAReportNotAnError() throws Exception {
    FreshJvm.run(getClass(), "hugeAndNul", temp);
  }

  @Test
  void aNulInAPathPropertyIsATypedErrorNamingTheProperty() throws Exception {
    FreshJvm.run(getClass(), "nulInProperty", temp);
  }

  @Test
  void aFifoNamedLikeALibraryInTheBundleDoesNotHangAvailability() throws Exception {
    List<String> command = ChildJvm.command(List.of("--enable-native-access=ALL-UNNAMED"), null, FreshJvm.class,
        List.of(getClass().getName(), "fifo", temp.toString()));
    Path logs = temp.resolve("logs-fifo");
    Process child = ChildJvm.start(command, Map.of(), logs);
    if (!child.waitFor(60, TimeUnit.SECONDS)) {
      child.destroyForcibly().waitFor();
      throw new AssertionError("availability() hung on a FIFO in the bundle: " + Files.readString(logs.resolve("stderr")));
    }
    assertEquals(0, child.exitValue(), Files.readString(logs.resolve("stdout")) + Files.readString(logs.resolve("stderr")));
  }

  @Test
  void aFifoNamedLikeADependencyOnTheLinkersSearchPathIsTheReasonNotAHang() throws Exception {
    // NCCL EP NEEDS libcuda.so.1; a FIFO of that name comes first on LD_LIBRARY_PATH. glibc's own dlopen, and its
    // RTLD_NOLOAD lookup of the name, would wait there for a writer for ever.
    Path fifos = Files.createDirectories(temp.resolve("fifos"));
    Process mkfifo = new ProcessBuilder("mkfifo", fifos.resolve("libcuda.so.1").toString()).inheritIO().start();
    assertEquals(0, mkfifo.waitFor(), "mkfifo (coreutils) is needed to make the FIFO");
    List<String> command = ChildJvm.command(List.of("--enable-native-access=ALL-UNNAMED"), null, FreshJvm.class,
        List.of(getClass().getName(), "fifoOnSearchPath", temp.toString()));
    Path logs = temp.resolve("logs-fifo-search");
    Process child = ChildJvm.start(command, Map.of("LD_LIBRARY_PATH", fifos + ":" + StandIns.cudaLibDir()), logs);
    if (!child.waitFor(60, TimeUnit.SECONDS)) {
      child.destroyForcibly().waitFor();
      throw new AssertionError("te-runtime waited at a FIFO on the search path: "
          + Files.readString(logs.resolve("stderr")));
    }
    assertEquals(0, child.exitValue(),
        Files.readString(logs.resolve("stdout")) + Files.readString(logs.resolve("stderr")));
  }

  static void fifoOnSearchPath(Path temp) throws Throwable {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    TeRuntime runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build();
    Availability availability = runtime.availability();
    assertFalse(availability.available(), availability.toString());
    Path fifo = temp.resolve("fifos").resolve("libcuda.so.1");
    assertTrue(availability.reason().contains(fifo + " (LD_LIBRARY_PATH) is a FIFO, not a library: glibc's dlopen"
        + " would open it and wait for a writer, for ever if none comes"), availability.reason());
    LoadException refused = assertThrows(LoadException.class, runtime::loadNcclEp);
    assertTrue(refused.getMessage().contains(fifo + " (LD_LIBRARY_PATH) is a FIFO"), refused.getMessage());
  }

  static void homeOutside(Path temp) throws Throwable {
    // ep-home layout; the manifest's ncclEpHome points at a copy outside the bundle, whose library nobody vetted.
    Path wheelLib = Bundles.epHomeLayout(temp.resolve("wheel_lib"));
    Bundles.writeManifest(wheelLib, "ep-home");
    Bundles.copyTree(wheelLib.resolve("nccl_ep"), temp.resolve("elsewhere"));
    Path manifest = wheelLib.resolve(Layout.MANIFEST);
    Files.writeString(manifest, Files.readString(manifest).replace("\"ncclEpHome\": \"nccl_ep\"",
        "\"ncclEpHome\": \"../elsewhere\""));
    TeRuntime runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build();

    Availability availability = runtime.availability();
    assertFalse(availability.available(), availability.toString());
    assertTrue(availability.reason().startsWith(manifest + " is not a valid te-wheel-lib/1 manifest: 'ncclEpHome'"
        + " '../elsewhere' is not a path inside wheel_lib (it has a '..' segment)"), availability.reason());
    LoadException refused = assertThrows(LoadException.class, runtime::loadTransformerEngine);
    assertTrue(refused.getMessage().contains("'ncclEpHome' '../elsewhere'"), refused.getMessage());
    assertNull(Bundles.getenv("NCCL_EP_HOME"), "NCCL_EP_HOME is never set outside the bundle");
    assertThrows(LoadException.class, runtime::loadNcclEp);
    assertEquals(List.of(), TeEpSequenceTest.mapped("libnccl_ep"));
  }

  static void usersOtherLibrary(Path temp) throws Throwable {
    // A user's NCCL_EP_HOME that is the bundle's own NCCL EP home is fine: the provider loads the vetted file.
    Path epHome = Bundles.epHomeLayout(temp.resolve("ep-home/wheel_lib"));
    Bundles.writeManifest(epHome, "ep-home");
    Bundles.setenv("NCCL_EP_HOME", epHome.resolve("nccl_ep").toString());
    Availability own = TeRuntime.builder().wheelLib(epHome).ncclLibrary(Bundles.NCCL).build().availability();
    assertTrue(own.available(), own.toString());

    // One whose lib/ holds another copy: TE's provider would load that copy, not the bundle's file te-runtime vetted.
    Path users = temp.resolve("users-home");
    Bundles.copyTree(StandIns.ncclEpHome().resolve("include"), users.resolve("include"));
    Files.createDirectories(users.resolve("lib"));
    Files.copy(StandIns.ncclEpLibrary(), users.resolve("lib/libnccl_ep.so.0"));
    Bundles.setenv("NCCL_EP_HOME", users.toString());
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    TeRuntime runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build();
    Availability availability = runtime.availability();
    assertFalse(availability.available(), availability.toString());
    assertEquals("TE's provider would load " + users.resolve("lib/libnccl_ep.so.0") + " (NCCL_EP_HOME " + users
        + ", set by the user), not " + wheelLib.resolve("libnccl_ep.so") + ", the library te-runtime vetted;"
        + " te-runtime refuses rather than let an unchecked library into the process. Unset NCCL_EP_HOME or set it"
        + " to the bundle's NCCL EP home " + wheelLib.resolve("nccl_ep") + ", or give no wheel_lib, so that the"
        + " search takes NCCL_EP_HOME's own library", availability.reason());

    // TE loads, but its EP initialisation (where the provider would dlopen the user's copy) is refused first.
    TransformerEngine te = runtime.loadTransformerEngine();
    Nccl nccl = te.nccl();
    try (NcclComm comm = nccl.commInitRank(1, nccl.uniqueId(), 0); Arena arena = Arena.ofConfined()) {
      TeEpGroupConfig group = TeEpGroupConfig.builder().epSize(1).numExperts(2).maxTokensPerRank(4).hiddenDim(8)
          .maxTokenDtype(TeDataType.FLOAT32).numTopk(1).build();
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> te.epInitialize(comm, group));
      assertTrue(e.getMessage().contains("TE's provider would load " + users.resolve("lib/libnccl_ep.so.0")),
          e.getMessage());
    }
    assertEquals(List.of(), TeEpSequenceTest.mapped("libnccl_ep"), "no NCCL EP was mapped");
  }

  static void unlistedTe(Path temp) throws Throwable {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    Manifest full = Bundles.writeManifest(wheelLib, "default");
    new Manifest(full.layout(), full.ncclEpHome(), full.includeRoot(), full.files().stream()
        .filter(f -> f.kind() != FileKind.TRANSFORMER_ENGINE_LIBRARY).toList()).write(wheelLib.resolve(Layout.MANIFEST));
    LoadException refused = assertThrows(LoadException.class, () -> TeRuntime.builder().wheelLib(wheelLib)
        .ncclLibrary(Bundles.NCCL).verifyDigests(true).build().loadTransformerEngine());
    assertEquals("the manifest of " + wheelLib + " does not list libtransformer_engine.so, so it does not vouch for "
        + wheelLib.resolve("libtransformer_engine.so") + ", and with te.verifyDigests=true te-runtime loads only"
        + " libraries the manifest lists (and whose SHA-256 matches). Rebuild the bundle with te:assemble-wheel-lib,"
        + " which lists it, or set te.verifyDigests=false", refused.getMessage());
    assertEquals(List.of(), TeEpSequenceTest.mapped("libtransformer_engine"), "TE was never mapped");

    // Likewise an NCCL EP library the manifest does not list.
    new Manifest(full.layout(), full.ncclEpHome(), full.includeRoot(), full.files().stream()
        .filter(f -> f.kind() == FileKind.HEADER).toList()).write(wheelLib.resolve(Layout.MANIFEST));
    Availability availability = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).verifyDigests(true)
        .build().availability();
    assertFalse(availability.available(), availability.toString());
    assertTrue(availability.reason().startsWith("the manifest of " + wheelLib + " lists no NCCL EP library, so it"
        + " vouches for none"), availability.reason());
  }

  static void hugeAndNul(Path temp) throws Throwable {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    Path manifest = wheelLib.resolve(Layout.MANIFEST);
    try (RandomAccessFile sparse = new RandomAccessFile(manifest.toFile(), "rw")) {
      sparse.setLength(3L << 30); // 3 GiB, sparse
    }
    TeRuntime runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build();
    Availability availability = runtime.availability();
    assertFalse(availability.available());
    assertTrue(availability.reason().startsWith(manifest + " is 3221225472 bytes, larger than a manifest may be"),
        availability.reason());
    // The CLI reports it too (exit 1: not available).
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int exit = Main.run(new String[] {"--wheel-lib", wheelLib.toString(), "--nccl-library", Bundles.NCCL.toString()},
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8));
    assertEquals(1, exit, out.toString(StandardCharsets.UTF_8));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("larger than a manifest may be"), out.toString());

    Files.delete(manifest);
    Bundles.writeManifest(wheelLib, "default");
    Files.writeString(manifest, Files.readString(manifest).replace("\"path\": \"libnccl_ep.so\"",
        "\"path\": \"libnccl_ep.so\\u0000txt\""));
    availability = runtime.availability();
    assertFalse(availability.available());
    assertTrue(availability.reason().contains("'path' 'libnccl_ep.so\\u0000txt' is not a path inside wheel_lib (it"
        + " holds the control character U+0000)"), availability.reason());
  }

  static void nulInProperty(Path temp) throws Throwable {
    System.setProperty("te.wheelLib", "wheel\0lib");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, TeRuntime.defaults()::availability);
    assertEquals("system property te.wheelLib='wheel\\u0000lib' is not a path (Nul character not allowed): give a"
        + " folder or file name", e.getMessage());
    assertFalse(e instanceof java.nio.file.InvalidPathException, "the JDK's exception does not escape");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = Main.run(new String[0], new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, exit);
    assertEquals("te-runtime: " + e.getMessage() + "\n", err.toString(StandardCharsets.UTF_8));

    System.setProperty("te.wheelLib", Bundles.defaultLayout(temp.resolve("wheel_lib")).toString());
    System.setProperty("te.ncclLibrary", "/x\0/libnccl.so.2");
    e = assertThrows(IllegalArgumentException.class, TeRuntime.defaults()::availability);
    assertTrue(e.getMessage().startsWith("system property te.ncclLibrary='/x\\u0000/libnccl.so.2' is not a path"),
        e.getMessage());
  }

  static void fifo(Path temp) throws Throwable {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    Path fifo = wheelLib.resolve("libnccl_ep.so.0.9.9");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
    assertEquals(0, mkfifo.waitFor(), "mkfifo (coreutils) is needed to make the FIFO");
    Availability availability = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build()
        .availability();
    assertTrue(availability.available(), availability.toString());
    assertEquals(wheelLib.resolve("libnccl_ep.so"), availability.chosenFile().orElseThrow());
    assertEquals("not a regular file but a FIFO: only regular files are opened", availability.candidates().stream()
        .filter(c -> c.file().equals(fifo)).findFirst().orElseThrow().reason());
  }
}
