package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.internal.Libc;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NCCL EP's JIT preflight: which nvcc, headers and cache folder the JIT's own lookup will use, and what te-runtime
 * sets for it (a per-user cache, pip's NCCL headers) without ever overwriting a user's value.
 */
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
  void aUsersCacheFolderIsKeptAndAnEmptyOneIsLeftAlone() throws Exception {
    FakeWorld.teWheel(temp.resolve("site"), 12);
    FreshJvm.run(getClass(), "usersCache", temp, Map.of("NCCL_EP_JIT_CACHE_DIR", temp.resolve("mine").toString()),
        List.of("-Dte.defaultCudaRoot=", "-Dte.ncclLibrary=" + Bundles.NCCL));
    FreshJvm.run(getClass(), "emptyCache", temp, Map.of("NCCL_EP_JIT_CACHE_DIR", ""),
        List.of("-Dte.defaultCudaRoot=", "-Dte.ncclLibrary=" + Bundles.NCCL));
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
    assertEquals(Path.of("/tmp/nccl_ep/jit"), jit.cacheDir());
    assertTrue(jit.cacheDirSource().startsWith("default (NCCL_EP_JIT_CACHE_DIR is set but empty"),
        jit.cacheDirSource());
    runtime.loadTransformerEngine();
    assertEquals("", Libc.getenv("NCCL_EP_JIT_CACHE_DIR"));
  }

  private static TeRuntime runtime(Path temp) {
    return TeRuntime.builder().wheelLib(temp.resolve("site/transformer_engine/wheel_lib")).build();
  }
}
