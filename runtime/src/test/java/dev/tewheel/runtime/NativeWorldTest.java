package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.error.LoadException;
import dev.tewheel.runtime.internal.ffm.Libc;
import dev.tewheel.runtime.internal.host.LinkerHost;
import dev.tewheel.runtime.report.NativeLibrary;
import dev.tewheel.runtime.report.NativeWorld;
import dev.tewheel.runtime.report.NcclStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TE's native world on fake toolkits and site-packages (FakeWorld): TE's search order, overrides and skips, copies
 * already mapped, missing libraries named with their wheel, the cu variant check, and the load order. Each body
 * runs in a fresh JVM, with {@code te.defaultCudaRoot} emptied so the machine's own /usr/local/cuda takes no part.
 */
class NativeWorldTest {
  @TempDir Path temp;

  private static final List<String> NO_DEFAULT_ROOT = List.of("-Dte.defaultCudaRoot=");

  @Test
  void theSystemComesBeforeThePipWheels() throws Exception {
    FakeWorld.toolkit(temp.resolve("cuda"), 12, false);
    FakeWorld.pipCu12(temp.resolve("site"));
    FakeWorld.teWheel(temp.resolve("site"), 12);
    FreshJvm.run(getClass(), "systemFirst", temp, Map.of("CUDA_HOME", temp.resolve("cuda").toString()),
        NO_DEFAULT_ROOT);
  }

  static void systemFirst(Path temp) throws Exception {
    NativeWorld world = runtime(temp).nativeWorld();
    assertEquals(List.of("cudart", "cublasLt", "cublas", "cudnn", "nvrtc", "curand", "nccl"),
        world.libraries().stream().map(NativeLibrary::name).toList());
    assertTrue(world.cudaToolkit(), world.toString());
    assertEquals(temp.resolve("site"), world.sitePackages().orElseThrow());
    assertEquals("installed TE wheel", world.sitePackagesSource());
    for (String name : List.of("cudart", "cublasLt", "cublas", "cudnn", "nvrtc", "curand")) {
      NativeLibrary library = world.library(name).orElseThrow();
      assertEquals(NativeLibrary.FoundBy.SYSTEM, library.foundBy(), library.toString());
      assertEquals("environment CUDA_HOME=" + temp.resolve("cuda"), library.foundDetail());
      assertTrue(library.file().orElseThrow().startsWith(temp.resolve("cuda/lib64")), library.toString());
      assertFalse(library.file().get().toString().contains("stub"), library.toString());
    }
    NativeLibrary cudart = world.library("cudart").orElseThrow();
    assertEquals("libcudart.so.12", cudart.soname().orElseThrow());
    assertEquals("12", cudart.version().orElseThrow());
    assertEquals("SONAME", cudart.versionSource());
    assertEquals(List.of("graph", "engines_runtime_compiled", "engines_precompiled", "heuristic", "ops", "cnn",
        "adv"), world.library("cudnn").orElseThrow().companions().stream()
            .map(p -> p.getFileName().toString().replaceAll("libcudnn_(.*)\\.so\\.9", "$1")).toList());
    // NCCL is no toolkit library: NCCL_HOME and the toolkit have none here, dlopen finds none, pip has it.
    NativeLibrary nccl = world.library("nccl").orElseThrow();
    assertEquals(NativeLibrary.FoundBy.PIP_WHEEL, nccl.foundBy(), nccl.toString());
    assertEquals(temp.resolve("site/nvidia/nccl/lib/libnccl.so.2"), nccl.file().orElseThrow());
    assertTrue(world.problems().isEmpty(), world.problems().toString());
    // The NCCL gate reads the same copy.
    NcclStatus gate = runtime(temp).availability().nccl();
    assertEquals(NcclStatus.Source.DISCOVERED, gate.source(), gate.toString());
    assertEquals(nccl.file(), gate.library());
  }

  @Test
  void withoutAToolkitEverythingComesFromPipAndLoadsInOrder() throws Exception {
    FakeWorld.pipCu12(temp.resolve("site"));
    FakeWorld.teWheel(temp.resolve("site"), 12);
    FreshJvm.run(getClass(), "pipOnlyAndLoad", temp, Map.of(), NO_DEFAULT_ROOT);
  }

  static void pipOnlyAndLoad(Path temp) throws Exception {
    TeRuntime runtime = runtime(temp);
    NativeWorld world = runtime.nativeWorld();
    assertFalse(world.cudaToolkit());
    Map<String, String> where = world.libraries().stream().collect(Collectors.toMap(NativeLibrary::name,
        l -> l.foundBy() + " " + temp.resolve("site").relativize(l.file().orElseThrow())));
    assertEquals(Map.of("cudart", "pip wheel nvidia/cuda_runtime/lib/libcudart.so.12",
        "cublasLt", "pip wheel nvidia/cublas/lib/libcublasLt.so.12",
        "cublas", "pip wheel nvidia/cublas/lib/libcublas.so.12",
        "cudnn", "pip wheel nvidia/cudnn/lib/libcudnn.so.9",
        "nvrtc", "pip wheel nvidia/cuda_nvrtc/lib/libnvrtc.so.12",
        "curand", "pip wheel nvidia/curand/lib/libcurand.so.10",
        "nccl", "pip wheel nvidia/nccl/lib/libnccl.so.2"), where);
    assertTrue(world.ok(), world.problems().toString());
    assertTrue(world.libraries().stream().allMatch(l -> l.mapped().isEmpty()), "nothing is loaded by a report");

    NativeWorld after = runtime.loadNativeLibraries();
    Map<String, String> versions = after.libraries().stream().collect(Collectors.toMap(NativeLibrary::name,
        l -> l.version().orElse("?") + " " + l.versionSource()));
    assertEquals(Map.of("cudart", "12.8 cudaRuntimeGetVersion", "cublasLt", "12.8.4 cublasLtGetVersion",
        "cublas", "12.8.4 cublasGetProperty", "cudnn", "9.10.2 cudnnGetVersion", "nvrtc", "12.8 nvrtcVersion",
        "curand", "10.3.5 curandGetVersion", "nccl", "2.30.4 ncclGetVersion"), versions);
    for (NativeLibrary library : after.libraries()) {
      assertEquals(NativeLibrary.FoundBy.ALREADY_LOADED, library.foundBy(), library.toString());
      assertEquals(1, library.mapped().size(), library.toString());
    }
    // The order of the maps is the order of loading (each library is mapped at a higher address than the last
    // here is not guaranteed, so check what matters: cuBLASLt was loaded before cuBLAS, which NEEDS it and has
    // no RUNPATH to find it otherwise), and the sub-libraries of cuDNN are mapped too.
    for (String part : FakeWorld.CUDNN_PARTS) {
      assertTrue(LinkerHost.loadedFile("libcudnn_" + part + ".so.9").isPresent(), "libcudnn_" + part + ".so.9 mapped");
    }
    assertTrue(LinkerHost.loadedFile("libcublas.so.12").isPresent());
    assertTrue(after.warnings().isEmpty(), after.warnings().toString());
  }

  @Test
  void overridesAndSkips() throws Exception {
    FakeWorld.pipCu12(temp.resolve("site"));
    FakeWorld.teWheel(temp.resolve("site"), 12);
    Path other = FakeWorld.curand(temp.resolve("elsewhere"), 10399);
    FreshJvm.run(getClass(), "overrides", temp, Map.of("TE_NATIVE_NVRTC_SKIP", "true"), List.of(
        "-Dte.defaultCudaRoot=", "-Dte.native.curand.path=" + other, "-Dte.native.cudnn.skip=true",
        "-Dte.native.cudart.path=" + temp.resolve("no-such-file")));
  }

  static void overrides(Path temp) throws Exception {
    NativeWorld world = runtime(temp).nativeWorld();
    NativeLibrary curand = world.library("curand").orElseThrow();
    assertEquals(NativeLibrary.FoundBy.OVERRIDE, curand.foundBy());
    assertEquals(temp.resolve("elsewhere/libcurand.so.10"), curand.file().orElseThrow());
    assertEquals("system property te.native.curand.path=" + temp.resolve("elsewhere/libcurand.so.10"),
        curand.foundDetail());
    NativeLibrary cudnn = world.library("cudnn").orElseThrow();
    assertTrue(cudnn.skipped());
    assertTrue(cudnn.file().isEmpty());
    assertEquals("system property te.native.cudnn.skip", cudnn.foundDetail());
    NativeLibrary nvrtc = world.library("nvrtc").orElseThrow();
    assertTrue(nvrtc.skipped());
    assertEquals("environment TE_NATIVE_NVRTC_SKIP", nvrtc.foundDetail());
    NativeLibrary cudart = world.library("cudart").orElseThrow();
    assertTrue(cudart.problem().orElseThrow().contains("te.native.cudart.path names " + temp.resolve("no-such-file")
        + ", which is not a file"), cudart.toString());
    assertEquals(List.of(cudart.problem().get()), world.problems());
    // A library someone named must exist: loading refuses, naming it.
    try {
      runtime(temp).loadNativeLibraries();
      throw new AssertionError("loadNativeLibraries() must refuse");
    } catch (LoadException e) {
      assertTrue(e.getMessage().contains("te.native.cudart.path"), e.getMessage());
    }
  }

  @Test
  void aCopyAlreadyMappedWinsAndTwoCopiesAreReported() throws Exception {
    FakeWorld.pipCu12(temp.resolve("site"));
    FakeWorld.teWheel(temp.resolve("site"), 12);
    FakeWorld.cudart(temp.resolve("system"), 12, 12040);
    FreshJvm.run(getClass(), "alreadyMapped", temp, Map.of(), NO_DEFAULT_ROOT);
  }

  static void alreadyMapped(Path temp) throws Exception {
    // Another component loaded its own cudart, then someone loaded pip's by path too: two files, one SONAME.
    Path system = temp.resolve("system/libcudart.so.12");
    Path pip = temp.resolve("site/nvidia/cuda_runtime/lib/libcudart.so.12");
    assertTrue(Libc.dlopen(system.toString(), Libc.RTLD_NOW | Libc.RTLD_LOCAL).ok());
    NativeWorld world = runtime(temp).nativeWorld();
    NativeLibrary cudart = world.library("cudart").orElseThrow();
    assertEquals(NativeLibrary.FoundBy.ALREADY_LOADED, cudart.foundBy());
    assertEquals(system, cudart.file().orElseThrow());
    assertEquals("12.4", cudart.version().orElseThrow(), "asked the mapped library itself");
    assertEquals("cudaRuntimeGetVersion", cudart.versionSource());
    assertTrue(world.warnings().isEmpty(), world.warnings().toString());

    assertTrue(Libc.dlopen(pip.toString(), Libc.RTLD_NOW | Libc.RTLD_LOCAL).ok());
    world = runtime(temp).nativeWorld();
    cudart = world.library("cudart").orElseThrow();
    assertEquals(List.of(system, pip), cudart.mapped());
    assertEquals(1, world.warnings().size(), world.warnings().toString());
    assertTrue(world.warnings().get(0).startsWith("two different files with SONAME libcudart.so.12 are mapped in"
        + " this process: " + system + ", " + pip), world.warnings().get(0));
  }

  @Test
  void aMissingLibraryIsNamedWithItsWheel() throws Exception {
    Files.createDirectories(temp.resolve("site"));
    FakeWorld.teWheel(temp.resolve("site"), 12);
    FakeWorld.nvrtc(temp.resolve("site/nvidia/cuda_nvrtc/lib"), 12, 8);
    FreshJvm.run(getClass(), "missing", temp, Map.of(), NO_DEFAULT_ROOT);
  }

  static void missing(Path temp) throws Exception {
    NativeWorld world = runtime(temp).nativeWorld();
    assertEquals(12, world.cudaVariant().orElseThrow());
    assertEquals("transformer_engine_cu12-2.9.0.dist-info", world.cudaVariantSource());
    NativeLibrary cudnn = world.library("cudnn").orElseThrow();
    assertEquals(NativeLibrary.FoundBy.NOT_FOUND, cudnn.foundBy());
    assertEquals("without a CUDA toolkit (neither NVRTC nor cuRAND on the system), libcudnn must come from a pip"
        + " wheel, and there is none: pip install nvidia-cudnn-cu12 into " + temp.resolve("site")
        + ", or set -Dte.native.cudnn.path=<file>", cudnn.problem().orElseThrow());
    assertTrue(world.library("curand").orElseThrow().problem().orElseThrow()
        .contains("pip install nvidia-curand-cu12 into"), world.problems().toString());
    assertTrue(world.library("nvrtc").orElseThrow().ok());
    assertEquals(6, world.problems().size(), world.problems().toString());
    try {
      runtime(temp).loadNativeLibraries();
      throw new AssertionError("loadNativeLibraries() must refuse");
    } catch (LoadException e) {
      assertTrue(e.getMessage().contains("pip install nvidia-cudnn-cu12"), e.getMessage());
    }
  }

  @Test
  void aCu12WheelOnACuda13Cudart() throws Exception {
    FakeWorld.pipCu13(temp.resolve("site"));
    FakeWorld.teWheel(temp.resolve("site"), 12);
    FreshJvm.run(getClass(), "cuVariant", temp, Map.of(), NO_DEFAULT_ROOT);
  }

  static void cuVariant(Path temp) throws Exception {
    NativeWorld world = runtime(temp).nativeWorld();
    NativeLibrary cudart = world.library("cudart").orElseThrow();
    assertEquals(temp.resolve("site/nvidia/cu13/lib/libcudart.so.13"), cudart.file().orElseThrow());
    assertEquals(NativeLibrary.FoundBy.PIP_WHEEL, cudart.foundBy());
    assertEquals("nvidia/cu13/lib", cudart.foundDetail());
    assertEquals(temp.resolve("site/nvidia/cu13/lib/libcublasLt.so.13"),
        world.library("cublasLt").orElseThrow().file().orElseThrow());
    assertEquals(temp.resolve("site/nvidia/cu13/lib/libcublas.so.13"),
        world.library("cublas").orElseThrow().file().orElseThrow());
    assertEquals(1, world.problems().size(), world.problems().toString());
    assertEquals("the TE build is for CUDA 12 (transformer_engine_cu12-2.9.0.dist-info), but the cudart in use is"
        + " CUDA 13 (" + cudart.file().get() + ", nvidia/cu13/lib): install nvidia-cuda-runtime-cu12, or the"
        + " transformer_engine_cu13 wheel", world.problems().get(0));
  }

  @Test
  void sitePackagesFromTheConfigurationOrVirtualEnv() throws Exception {
    FakeWorld.pipNccl(temp.resolve("venv/lib/python3.12/site-packages"));
    Bundles.defaultLayout(temp.resolve("wheel_lib"));
    FreshJvm.run(getClass(), "venv", temp, Map.of("VIRTUAL_ENV", temp.resolve("venv").toString()),
        NO_DEFAULT_ROOT);
    FreshJvm.run(getClass(), "configured", temp, Map.of("VIRTUAL_ENV", temp.resolve("venv").toString()),
        List.of("-Dte.defaultCudaRoot=", "-Dte.sitePackages=" + temp.resolve("other")));
  }

  static void venv(Path temp) throws Exception {
    NativeWorld world = TeRuntime.builder().wheelLib(temp.resolve("wheel_lib")).build().nativeWorld();
    assertEquals(temp.resolve("venv/lib/python3.12/site-packages"), world.sitePackages().orElseThrow());
    assertEquals("environment VIRTUAL_ENV", world.sitePackagesSource());
    assertEquals(NativeLibrary.FoundBy.PIP_WHEEL, world.library("nccl").orElseThrow().foundBy());
  }

  static void configured(Path temp) throws Exception {
    NativeWorld world = TeRuntime.builder().wheelLib(temp.resolve("wheel_lib")).build().nativeWorld();
    assertEquals(temp.resolve("other"), world.sitePackages().orElseThrow());
    assertEquals("system property te.sitePackages", world.sitePackagesSource());
  }

  @Test
  @SuppressWarnings("unchecked")
  void theCliLoadsEverythingAndReportsWhatGotMapped() throws Exception {
    FakeWorld.pipCu12(temp.resolve("site"));
    Path wheelLib = FakeWorld.teWheel(temp.resolve("site"), 12);
    ChildJvm.Result result = ChildJvm.run(ChildJvm.command(List.of("--enable-native-access=ALL-UNNAMED",
        "-Dte.defaultCudaRoot="), null, dev.tewheel.runtime.cli.Main.class,
        List.of("--wheel-lib", wheelLib.toString(), "--json", "--load")), Map.of(), temp.resolve("logs"));
    assertEquals(0, result.exit(), result.toString());
    Map<String, Object> report = (Map<String, Object>) dev.tewheel.json.Json.parse(result.out());
    Map<String, Object> world = (Map<String, Object>) report.get("world");
    assertEquals(true, world.get("ok"), result.toString());
    assertEquals(12L, world.get("cudaVariant"));
    List<Map<String, Object>> before = (List<Map<String, Object>>) world.get("libraries");
    assertEquals("pip wheel", before.get(3).get("foundBy"));
    assertEquals("9", before.get(3).get("version"));
    assertEquals("SONAME", before.get(3).get("versionSource"));
    Map<String, Object> load = (Map<String, Object>) report.get("load");
    assertEquals(Map.of("ok", true), load.get("libraries"));
    List<Map<String, Object>> after = (List<Map<String, Object>>) ((Map<String, Object>) load.get("mapped"))
        .get("libraries");
    assertEquals("9.10.2", after.get(3).get("version"));
    assertEquals("cudnnGetVersion", after.get(3).get("versionSource"));
    assertEquals(List.of(before.get(3).get("file")), after.get(3).get("mapped"));
    assertTrue(((Map<String, Object>) report.get("jit")).containsKey("verdict"));

    ChildJvm.Result text = ChildJvm.run(ChildJvm.command(List.of("--enable-native-access=ALL-UNNAMED",
        "-Dte.defaultCudaRoot="), null, dev.tewheel.runtime.cli.Main.class,
        List.of("--wheel-lib", wheelLib.toString(), "--load")), Map.of(), temp.resolve("logs-text"));
    assertEquals(0, text.exit(), text.toString());
    assertTrue(text.out().contains("\n  cudnn     9 (SONAME)"), text.out());
    assertTrue(text.out().contains("Loaded TE's native libraries\n"), text.out());
    assertTrue(text.out().contains("\n  cudnn     9.10.2 (cudnnGetVersion)"), text.out());
  }

  private static TeRuntime runtime(Path temp) {
    return TeRuntime.builder().wheelLib(temp.resolve("site/transformer_engine/wheel_lib")).build();
  }
}
