package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.error.LoadException;
import dev.tewheel.runtime.internal.ffm.Libc;
import dev.tewheel.runtime.report.EnvironmentSetting;
import dev.tewheel.runtime.report.JitPreflight;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * NCCL EP's JIT preflight: which nvcc, headers and cache folder the JIT's own lookup will use, and what te-runtime
 * sets for it (a per-user cache, pip's NCCL headers) without ever overwriting a user's value.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JitPreflightTest {
  @TempDir Path temp;

  private static final String PATH_WITHOUT_NVCC = "/usr/bin:/bin";

  @Test
  void readyWithAToolkitAndPipsNcclHeaders() throws Exception {
    FakeWorld.toolkit(temp.resolve("cuda"), 12, true);
    FakeWorld.pipNccl(temp.resolve("site"));
    FakeWorld.teWheel(temp.resolve("site"), 12);
    FreshJvm.run(getClass(), "ready", temp, Map.of("CUDA_HOME", temp.resolve("cuda").toString(), "PATH",
        PATH_WITHOUT_NVCC, "XDG_CACHE_HOME", temp.resolve("xdg").toString()), List.of("-Dte.defaultCudaRoot="));
  }

  static void ready(Path temp) throws Exception {
    TeRuntime runtime = runtime(temp);
    JitPreflight jit = runtime.jitPreflight();
    assertEquals(temp.resolve("cuda/bin/nvcc"), jit.nvcc().orElseThrow(), jit.toString());
    assertEquals("CUDA_HOME=" + temp.resolve("cuda"), jit.nvccSource());
    assertEquals("12.6.77", jit.nvccVersion().orElseThrow());
    Path wheelLib = temp.resolve("site/transformer_engine/wheel_lib");
    assertEquals(wheelLib.resolve("nccl_ep/include/nccl_ep"), jit.sourceDir().orElseThrow());
    assertTrue(jit.sourceDirSource().startsWith("bundle (te-runtime sets NCCL_EP_HOME="), jit.sourceDirSource());
    assertEquals(temp.resolve("site/nvidia/nccl/include"), jit.ncclInclude().orElseThrow());
    assertTrue(jit.ncclIncludeSource().startsWith("pip wheel"), jit.ncclIncludeSource());
    assertEquals("2.30.4", jit.ncclHeaderVersion().orElseThrow().toString());
    assertEquals(jit.ncclHeaderVersion(), jit.ncclLoadedVersion());
    assertEquals(temp.resolve("cuda/include"), jit.cudaInclude().orElseThrow());
    assertEquals("CUDA_HOME", jit.cudaIncludeSource());
    assertTrue(jit.cccl());
    Path cache = temp.resolve("xdg/nccl_ep/jit");
    assertEquals(cache, jit.cacheDir());
    assertTrue(jit.cacheDirSource().startsWith("te-runtime (sets NCCL_EP_JIT_CACHE_DIR"), jit.cacheDirSource());
    assertEquals("JIT ready", jit.verdict(), jit.missing().toString());
    assertTrue(jit.ready());
    assertEquals(List.of("NCCL_EP_JIT_BUILD_INCLUDE_DIR", "NCCL_EP_JIT_CACHE_DIR"),
        jit.environment().stream().map(EnvironmentSetting::name).sorted().toList());
    assertEquals(null, Libc.getenv("NCCL_EP_JIT_CACHE_DIR"), "a preflight sets nothing");

    runtime.loadTransformerEngine();
    assertEquals(cache.toString(), Libc.getenv("NCCL_EP_JIT_CACHE_DIR"));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cache)));
    assertEquals(temp.resolve("site/nvidia/nccl/include").toString(), Libc.getenv("NCCL_EP_JIT_BUILD_INCLUDE_DIR"));
    jit = runtime.jitPreflight();
    assertEquals("te-runtime", jit.cacheDirSource());
    assertEquals("NCCL_EP_JIT_BUILD_INCLUDE_DIR (set by te-runtime: pip wheel)", jit.ncclIncludeSource());
    assertEquals("NCCL_EP_HOME (set by te-runtime)", jit.sourceDirSource());
    assertEquals("JIT ready", jit.verdict());
  }

  @Test
  void anEmptyNcclEpHomeStaysEmptySoTheJitTakesConfigHsPathNotTheBundlesHeaders() throws Exception {
    FakeWorld.teWheel(temp.resolve("site"), 12);
    FreshJvm.run(getClass(), "emptyNcclEpHome", temp, Map.of("NCCL_EP_HOME", "", "PATH", PATH_WITHOUT_NVCC),
        List.of("-Dte.defaultCudaRoot=", "-Dte.ncclLibrary=" + Bundles.NCCL));
  }

  static void emptyNcclEpHome(Path temp) throws Exception {
    // te-runtime and TE's provider set NCCL_EP_HOME without overwriting, so the empty value stays, and the JIT, for
    // which empty is unset, falls back to config.h's build-machine path: the bundle's headers are not the ones used.
    JitPreflight jit = runtime(temp).jitPreflight();
    Path bundleHeaders = temp.resolve("site/transformer_engine/wheel_lib/nccl_ep/include/nccl_ep");
    assertEquals("config.h (NCCL_EP_HOME is empty, which the JIT treats as unset)", jit.sourceDirSource());
    assertFalse(jit.sourceDir().equals(java.util.Optional.of(bundleHeaders)), jit.sourceDir().toString());
  }

  @Test
  void withoutNvccAndWithAnotherNcclsHeaders() throws Exception {
    FakeWorld.pipNccl(temp.resolve("site"));
    FakeWorld.teWheel(temp.resolve("site"), 12);
    FreshJvm.run(getClass(), "notReady", temp, Map.of("PATH", PATH_WITHOUT_NVCC, "NCCL_EP_JIT_BUILD_INCLUDE_DIR",
        StandIns.oldNcclHome().resolve("include").toString(), "XDG_CACHE_HOME", temp.resolve("xdg").toString()),
        List.of("-Dte.defaultCudaRoot="));
  }

  static void notReady(Path temp) throws Exception {
    TeRuntime runtime = runtime(temp);
    JitPreflight jit = runtime.jitPreflight();
    assertTrue(jit.nvcc().isEmpty());
    assertEquals("PATH", jit.nvccSource());
    assertEquals(StandIns.oldNcclHome().resolve("include"), jit.ncclInclude().orElseThrow());
    assertEquals("NCCL_EP_JIT_BUILD_INCLUDE_DIR", jit.ncclIncludeSource());
    assertEquals("2.28.9", jit.ncclHeaderVersion().orElseThrow().toString());
    assertEquals("2.30.4", jit.ncclLoadedVersion().orElseThrow().toString());
    // CUDA's headers: no CUDA_HOME, so the JIT falls back to config.h's build-machine path.
    assertEquals("config.h", jit.cudaIncludeSource());
    assertTrue(jit.missing().get(0).startsWith("nvcc: none found (PATH;"), jit.missing().toString());
    assertTrue(jit.missing().stream().anyMatch(m -> m.startsWith("nccl.h in " + StandIns.oldNcclHome()
        .resolve("include") + " declares 2.28.9 but the NCCL loaded is 2.30.4")), jit.missing().toString());
    assertTrue(jit.verdict().startsWith("JIT not ready: nvcc: none found"), jit.verdict());
    assertTrue(jit.verdict().contains("ncclEpDispatch will fail: on a real H200 the NCCL EP build returned"
        + " ncclInternalError (3) and logged `No such file`"), jit.verdict());
    // The include folder is the user's: te-runtime does not point the JIT at pip's headers then.
    assertEquals(List.of("NCCL_EP_JIT_CACHE_DIR"), jit.environment().stream().map(EnvironmentSetting::name).toList());
    runtime.loadTransformerEngine();
    assertEquals(StandIns.oldNcclHome().resolve("include").toString(), Libc.getenv("NCCL_EP_JIT_BUILD_INCLUDE_DIR"));
  }

  @Test
  void aUsersCacheFolderIsKeptAndAnEmptyOneGetsAPrivateFolderAsTheJitTreatsItAsUnset() throws Exception {
    FakeWorld.teWheel(temp.resolve("site"), 12);
    FreshJvm.run(getClass(), "usersCache", temp, Map.of("NCCL_EP_JIT_CACHE_DIR", temp.resolve("mine").toString()),
        List.of("-Dte.defaultCudaRoot=", "-Dte.ncclLibrary=" + Bundles.NCCL));
    FreshJvm.run(getClass(), "emptyCache", temp, Map.of("NCCL_EP_JIT_CACHE_DIR", "", "XDG_CACHE_HOME",
        temp.resolve("xdg").toString()), List.of("-Dte.defaultCudaRoot=", "-Dte.ncclLibrary=" + Bundles.NCCL));
  }

  static void usersCache(Path temp) throws Exception {
    TeRuntime runtime = runtime(temp);
    JitPreflight jit = runtime.jitPreflight();
    assertEquals(temp.resolve("mine"), jit.cacheDir());
    assertEquals("NCCL_EP_JIT_CACHE_DIR", jit.cacheDirSource());
    runtime.loadTransformerEngine();
    assertEquals(temp.resolve("mine").toString(), Libc.getenv("NCCL_EP_JIT_CACHE_DIR"));
    assertEquals("NCCL_EP_JIT_CACHE_DIR", runtime.jitPreflight().cacheDirSource());
  }

  static void emptyCache(Path temp) throws Exception {
    TeRuntime runtime = runtime(temp);
    JitPreflight jit = runtime.jitPreflight();
    Path cache = temp.resolve("xdg/nccl_ep/jit");
    assertEquals(cache, jit.cacheDir());
    assertTrue(jit.cacheDirSource().startsWith("te-runtime (sets NCCL_EP_JIT_CACHE_DIR when it loads TE or NCCL EP;"
        + " it is set but empty, which the JIT treats as unset, so it would use /tmp/nccl_ep/jit"),
        jit.cacheDirSource());
    runtime.loadTransformerEngine();
    assertEquals(cache.toString(), Libc.getenv("NCCL_EP_JIT_CACHE_DIR"));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cache)));
  }

  @Test
  void aJitCacheAnotherUserCanChangeIsPassedOverForAPrivateOne() throws Exception {
    FakeWorld.teWheel(temp.resolve("site"), 12);
    Path hostile = Files.createDirectories(temp.resolve("xdg/nccl_ep/jit"));
    Files.writeString(temp.resolve("found"), OtherUsers.handOver(hostile));
    FreshJvm.run(getClass(), "passedOver", temp, Map.of("XDG_CACHE_HOME", temp.resolve("xdg").toString(), "HOME",
        temp.resolve("home").toString()), List.of("-Dte.defaultCudaRoot=", "-Dte.ncclLibrary=" + Bundles.NCCL));
  }

  static void passedOver(Path temp) throws Exception {
    TeRuntime runtime = runtime(temp);
    JitPreflight jit = runtime.jitPreflight();
    Path hostile = temp.resolve("xdg/nccl_ep/jit");
    Path cache = temp.resolve("home/.cache/nccl_ep/jit");
    assertEquals(cache, jit.cacheDir(), jit.toString());
    assertEquals(1, jit.cacheRefused().size(), jit.cacheRefused().toString());
    assertTrue(jit.cacheRefused().get(0).startsWith("XDG_CACHE_HOME=" + temp.resolve("xdg") + ": " + hostile + " "
        + Files.readString(temp.resolve("found"))), jit.cacheRefused().get(0));
    assertTrue(jit.cacheDirSource().endsWith("; HOME=" + temp.resolve("home")), jit.cacheDirSource());
    assertTrue(jit.missing().stream().noneMatch(m -> m.contains("NCCL_EP_JIT_CACHE_DIR")), jit.missing().toString());
    runtime.loadTransformerEngine();
    assertEquals(cache.toString(), Libc.getenv("NCCL_EP_JIT_CACHE_DIR"));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cache)));
  }

  @Test
  void aSymlinkedJitCacheIsPassedOverAndWithNoSafeHomeAFreshPrivateFolderIsUsed() throws Exception {
    FakeWorld.teWheel(temp.resolve("site"), 12);
    Path elsewhere = Files.createDirectories(temp.resolve("elsewhere"));
    Files.createDirectories(temp.resolve("xdg/nccl_ep"));
    Files.createSymbolicLink(temp.resolve("xdg/nccl_ep/jit"), elsewhere);
    Path home = Files.createDirectories(temp.resolve("home"));
    Files.writeString(temp.resolve("found"), OtherUsers.handOverAbove(home));
    Files.createDirectories(temp.resolve("tmp"));
    FreshJvm.run(getClass(), "fresh", temp, Map.of("XDG_CACHE_HOME", temp.resolve("xdg").toString(), "HOME",
        home.toString()), List.of("-Dte.defaultCudaRoot=", "-Dte.ncclLibrary=" + Bundles.NCCL, "-Duser.home=" + home,
        "-Djava.io.tmpdir=" + temp.resolve("tmp")));
  }

  static void fresh(Path temp) throws Exception {
    TeRuntime runtime = runtime(temp);
    JitPreflight jit = runtime.jitPreflight();
    List<String> refused = jit.cacheRefused();
    assertEquals(2, refused.size(), refused.toString());
    assertTrue(refused.get(0).startsWith("XDG_CACHE_HOME=" + temp.resolve("xdg") + ": " + temp.resolve("xdg/nccl_ep/jit")
        + " is a symbolic link to " + temp.resolve("elsewhere")), refused.get(0));
    assertTrue(refused.get(1).startsWith("HOME=" + temp.resolve("home") + ": " + temp.resolve("home/.cache/nccl_ep/jit")
        + " is not safe: " + temp.resolve("home") + ", a folder above it, " + Files.readString(temp.resolve("found"))),
        refused.get(1));
    Path cache = jit.cacheDir();
    assertEquals(temp.resolve("tmp"), cache.getParent(), cache.toString());
    assertTrue(cache.getFileName().toString().startsWith("nccl_ep-jit-"), cache.toString());
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cache)));
    assertTrue(jit.cacheDirSource().endsWith("; a fresh private folder of this process (its kernels are not reused by"
        + " the next one)"), jit.cacheDirSource());
    runtime.loadTransformerEngine();
    assertEquals(cache.toString(), Libc.getenv("NCCL_EP_JIT_CACHE_DIR"));
    assertFalse(Files.exists(temp.resolve("home/.cache")), "nothing made below the folder another user can change");
  }

  @Test
  void xdgCacheHomeTmpNeverGivesNcclEpsSharedCache() throws Exception {
    FakeWorld.teWheel(temp.resolve("site"), 12);
    FreshJvm.run(getClass(), "notShared", temp, Map.of("XDG_CACHE_HOME", "/tmp", "HOME",
        temp.resolve("home").toString()), List.of("-Dte.defaultCudaRoot=", "-Dte.ncclLibrary=" + Bundles.NCCL));
  }

  static void notShared(Path temp) throws Exception {
    TeRuntime runtime = runtime(temp);
    JitPreflight jit = runtime.jitPreflight();
    assertEquals(temp.resolve("home/.cache/nccl_ep/jit"), jit.cacheDir());
    assertEquals(List.of("XDG_CACHE_HOME=/tmp gives /tmp/nccl_ep/jit, NCCL EP's own default, which every user of"
        + " this machine shares: never used"), jit.cacheRefused());
    runtime.loadTransformerEngine();
    assertEquals(temp.resolve("home/.cache/nccl_ep/jit").toString(), Libc.getenv("NCCL_EP_JIT_CACHE_DIR"));
  }

  @Test
  void aRelativeHomeOrXdgCacheHomeIsIgnored() throws Exception {
    FakeWorld.teWheel(temp.resolve("site"), 12);
    FreshJvm.run(getClass(), "relative", temp, Map.of("XDG_CACHE_HOME", "xdg", "HOME", "home"),
        List.of("-Dte.defaultCudaRoot=", "-Dte.ncclLibrary=" + Bundles.NCCL, "-Duser.home=" + temp.resolve("account")));
  }

  static void relative(Path temp) throws Exception {
    JitPreflight jit = runtime(temp).jitPreflight();
    assertEquals(temp.resolve("account/.cache/nccl_ep/jit"), jit.cacheDir());
    assertEquals(List.of("XDG_CACHE_HOME=xdg is relative, which the XDG base directory specification says to ignore",
        "HOME=home is relative, so it names no fixed folder: ignored"), jit.cacheRefused());
  }

  @Test
  void anUnsafeJitCacheTheUserSetIsReportedAndNothingLoadsWithIt() throws Exception {
    FakeWorld.teWheel(temp.resolve("site"), 12);
    Path shared = Files.createDirectories(temp.resolve("shared/jit"));
    Files.writeString(temp.resolve("found"), OtherUsers.handOver(shared));
    FreshJvm.run(getClass(), "unsafeUsersCache", temp, Map.of("NCCL_EP_JIT_CACHE_DIR", shared.toString()),
        List.of("-Dte.defaultCudaRoot=", "-Dte.ncclLibrary=" + Bundles.NCCL));
  }

  static void unsafeUsersCache(Path temp) throws Exception {
    TeRuntime runtime = runtime(temp);
    JitPreflight jit = runtime.jitPreflight();
    Path shared = temp.resolve("shared/jit");
    assertEquals(shared, jit.cacheDir());
    assertEquals("NCCL_EP_JIT_CACHE_DIR", jit.cacheDirSource());
    assertFalse(jit.ready());
    String problem = "NCCL_EP_JIT_CACHE_DIR names " + shared + " " + Files.readString(temp.resolve("found"));
    assertTrue(jit.missing().stream().anyMatch(m -> m.startsWith(problem)), jit.missing().toString());
    assertTrue(jit.verdict().contains("te-runtime will not load TE or NCCL EP with it, since the JIT would load the"
        + " kernels it finds there; te-runtime leaves a value someone set alone: point NCCL_EP_JIT_CACHE_DIR at a"
        + " private folder of yours, or unset it to let te-runtime pick one"), jit.verdict());
    LoadException refused = assertThrows(LoadException.class,
        runtime::loadTransformerEngine);
    assertTrue(refused.getMessage().startsWith(problem), refused.getMessage());
    LoadException refusedEp = assertThrows(LoadException.class, runtime::loadNcclEp);
    assertTrue(refusedEp.getMessage().startsWith(problem), refusedEp.getMessage());
    assertEquals(shared.toString(), Libc.getenv("NCCL_EP_JIT_CACHE_DIR"), "the user's value is left alone");
    String maps = Files.readString(Path.of("/proc/self/maps"));
    assertFalse(maps.contains("libtransformer_engine") || maps.contains("libnccl_ep"), "neither TE nor NCCL EP loaded");
  }

  private static TeRuntime runtime(Path temp) {
    return TeRuntime.builder().wheelLib(temp.resolve("site/transformer_engine/wheel_lib")).build();
  }
}
