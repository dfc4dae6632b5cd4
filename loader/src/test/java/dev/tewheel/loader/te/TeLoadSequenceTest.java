package dev.tewheel.loader.te;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.loader.Host;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TE's loading sequence as a pure function of a host and files: for each step of TE's order, a copy placed there and
 * at every later step is found there, and the trail names each step tried before it. No environment of this process
 * is read, nothing is loaded.
 */
class TeLoadSequenceTest {
  @TempDir Path temp;

  /** The steps of TE's order for cuBLAS, each a way to place a copy of it, first to last. */
  private static final List<String> STEPS = List.of("mapped", "property", "TE_NATIVE_CUBLAS_PATH", "CUBLAS_HOME",
      "CUBLAS_PATH", "CUDA_HOME", "CUDA_PATH", "default", "dlopen", "nvidia/cu13/cublas/lib", "nvidia/cu13/lib",
      "nvidia/cublas/lib", "nvidia/cuda_cublas/lib");

  /** Built up by placing copies, then run. */
  private final class World {
    final Path site;
    final Map<String, String> env = new HashMap<>();
    final Map<String, String> properties = new HashMap<>();
    final List<Host.Mapped> mapped = new ArrayList<>();
    final Map<String, Path> dlopen = new HashMap<>();
    Optional<Path> defaultRoot = Optional.empty();

    World(String name) throws IOException {
      site = Files.createDirectories(temp.resolve(name).resolve("site-packages"));
    }

    Path file(String relative) throws IOException {
      Path file = site.getParent().resolve(relative);
      Files.createDirectories(file.getParent());
      return Files.write(file, new byte[] {1});
    }

    /** A copy of cuBLAS at a step; returns the file the step would take. */
    Path place(String step) throws IOException {
      switch (step) {
        case "mapped" -> {
          Path f = file("mapped/libcublas.so.13");
          mapped.add(new Host.Mapped("libcublas.so.13", f, Host.Scope.GLOBAL));
          return f;
        }
        case "property" -> {
          Path f = file("property/libcublas.so.13");
          properties.put("te.native.cublas.path", f.toString());
          return f;
        }
        case "TE_NATIVE_CUBLAS_PATH" -> {
          Path f = file("override/libcublas.so.13");
          env.put(step, f.toString());
          return f;
        }
        case "CUBLAS_HOME", "CUBLAS_PATH", "CUDA_HOME", "CUDA_PATH" -> {
          Path f = file(step + "/lib64/deep/libcublas.so.13.1");
          file(step + "/lib64/stubs/libcublas.so.99"); // a stub is never taken, however high its name
          env.put(step, site.getParent().resolve(step).toString());
          return f;
        }
        case "default" -> {
          Path f = file("default/targets/lib/libcublas.so.13");
          defaultRoot = Optional.of(site.getParent().resolve("default"));
          return f;
        }
        case "dlopen" -> {
          Path f = file("ldcache/libcublas.so");
          dlopen.put("libcublas.so", f);
          return f;
        }
        default -> {
          file("site-packages/" + step + "/libcublas.so.13.0.2");
          return file("site-packages/" + step + "/libcublas.so.13.10.1"); // the highest version, as numbers
        }
      }
    }

    TeLoadSequence.Result run() {
      Host host = new Host(env, Optional.empty(), Optional.empty(), List.of(""), Optional.empty(), Optional.empty(),
          mapped);
      TeLoadSequence.DlopenSearch search = name -> Optional.ofNullable(dlopen.get(name))
          .map(f -> new TeLoadSequence.DlopenSearch.Hit(f, "ld.so.cache"));
      return TeLoadSequence.run(new TeLoadSequence.Request(host, TeSitePackages.of(site, "test"), properties,
          defaultRoot, Optional.empty(), Optional.empty(), search));
    }
  }

  @Test
  void eachStepWinsOverEveryLaterOneAndTheTrailNamesTheStepsBeforeIt() throws IOException {
    for (int k = 0; k < STEPS.size(); k++) {
      World world = new World("k" + k);
      world.dlopen.put("libnvrtc.so", world.file("toolkit/libnvrtc.so")); // a toolkit: the system steps count
      Path expected = null;
      for (int later = k; later < STEPS.size(); later++) {
        Path placed = world.place(STEPS.get(later));
        expected = later == k ? placed : expected;
      }
      TeLoadSequence.Found cublas = world.run().library("cublas");
      assertEquals(Optional.of(expected.toAbsolutePath().normalize()), cublas.file().map(p -> p.toAbsolutePath()
          .normalize()), "copies from step " + STEPS.get(k) + " on");
      TeLoadSequence.Step last = cublas.steps().get(cublas.steps().size() - 1);
      assertTrue(last.file().isPresent(), "the trail ends at the step that found it: " + cublas.steps());
      assertTrue(cublas.steps().subList(0, cublas.steps().size() - 1).stream().allMatch(s -> s.file().isEmpty()),
          "every step before found nothing: " + cublas.steps());
      assertTrue(cublas.problem().isEmpty(), cublas.problem().toString());
    }
  }

  @Test
  void withoutAToolkitCudartCublasAndCudnnComeFromPipWheelsOnly() throws IOException {
    World world = new World("notoolkit");
    world.env.put("CUDA_HOME", world.site.getParent().resolve("cuda").toString());
    world.file("cuda/lib64/libcublas.so.12");
    world.file("cuda/lib64/libcudart.so.12");
    Path pip = world.file("site-packages/nvidia/cuda_runtime/lib/libcudart.so.12");
    TeLoadSequence.Result result = world.run();
    assertEquals(false, result.toolkit());
    assertEquals(Optional.of(pip), result.library("cudart").file(), "cudart: the real folder TE's patterns miss");
    assertEquals(TeFoundBy.PIP_WHEEL, result.library("cudart").foundBy());
    TeLoadSequence.Found cublas = result.library("cublas");
    assertEquals(TeFoundBy.NOT_FOUND, cublas.foundBy());
    assertTrue(cublas.problem().orElseThrow().startsWith("without a CUDA toolkit"), cublas.problem().get());
    assertTrue(cublas.problem().get().contains("pip install nvidia-cublas-cu12 (CUDA 12) or nvidia-cublas (CUDA 13)"
        + " into " + world.site), cublas.problem().get());
  }

  @Test
  void aSkipLeavesTheLibraryOutAndAnOverrideThatIsNoFileStopsTheSearch() throws IOException {
    World world = new World("overrides");
    world.dlopen.put("libnvrtc.so", world.file("toolkit/libnvrtc.so"));
    world.dlopen.put("libcurand.so", world.file("toolkit/libcurand.so"));
    world.env.put("TE_NATIVE_CURAND_SKIP", "1");
    world.properties.put("te.native.nvrtc.path", world.site.resolve("missing.so").toString());
    world.env.put("TE_NATIVE_CUDNN_SKIP", "0"); // 0 and false mean not skipped
    TeLoadSequence.Result result = world.run();
    assertEquals(TeFoundBy.SKIPPED, result.library("curand").foundBy());
    assertEquals("environment TE_NATIVE_CURAND_SKIP", result.library("curand").detail());
    assertTrue(result.library("curand").problem().isEmpty());
    assertEquals(TeFoundBy.OVERRIDE, result.library("nvrtc").foundBy());
    assertEquals(Optional.empty(), result.library("nvrtc").file(), "the toolkit's copy is not taken instead");
    assertTrue(result.problems().contains("system property te.native.nvrtc.path names " + world.site
        .resolve("missing.so") + ", which is not a file; the search stops at a value someone set"), result.problems()
        .toString());
    assertEquals(TeFoundBy.NOT_FOUND, result.library("cudnn").foundBy());
  }

  @Test
  void twoMappedCopiesOfOneSonameAndAMappedCopyBesideTheChosenOneAreWarnedAbout() throws IOException {
    World world = new World("mapped");
    Path first = world.file("a/libnccl.so.2");
    Path second = world.file("b/libnccl.so.2");
    world.mapped.add(new Host.Mapped("libnccl.so.2", first, Host.Scope.GLOBAL));
    world.mapped.add(new Host.Mapped("libnccl.so.2", second, Host.Scope.LOCAL));
    TeLoadSequence.Result result = world.run();
    assertEquals(Optional.of(first), result.library("nccl").file(), "DT_NEEDED binds to the first loaded");
    assertEquals(TeFoundBy.ALREADY_LOADED, result.library("nccl").foundBy());
    assertEquals(List.of("two different files with SONAME libnccl.so.2 are mapped in this process: " + first + ", "
        + second + "; DT_NEEDED entries bind to the first loaded (" + first + ")"), result.warnings());
  }

  @Test
  void teBuiltForAnotherCudaThanTheCudartInUseIsAProblemNamingBoth() throws IOException {
    World world = new World("variant");
    Path wheelLib = Files.createDirectories(world.site.resolve("transformer_engine/wheel_lib"));
    Files.createDirectories(world.site.resolve("transformer_engine_cu13-2.9.0.dist-info"));
    Path cudart = world.file("site-packages/nvidia/cuda_runtime/lib/libcudart.so.12");
    Host host = Host.bare();
    TeSitePackages site = TeSitePackages.choose(Optional.of(wheelLib), Optional.empty(), host);
    assertEquals(new TeSitePackages(Optional.of(world.site), "installed TE wheel", true), site);
    TeLoadSequence.Result result = TeLoadSequence.run(new TeLoadSequence.Request(host, site, Map.of(),
        Optional.empty(), Optional.empty(), Optional.empty(), TeLoadSequence.DlopenSearch.NONE));
    assertEquals(Optional.of(13), result.variant());
    assertEquals(Optional.of(cudart), result.library("cudart").file());
    assertEquals(Optional.of("12"), result.library("cudart").version());
    assertEquals(Optional.of("the TE build is for CUDA 13 (transformer_engine_cu13-2.9.0.dist-info), but the cudart in"
        + " use is CUDA 12 (" + cudart + ", nvidia/cuda_runtime/lib): install nvidia-cuda-runtime, or the"
        + " transformer_engine_cu12 wheel"), result.cudaMismatch(result.library("cudart").version()));
    assertEquals(Optional.empty(), result.cudaMismatch(Optional.of("13.0")));
  }

  @Test
  void aVirtualEnvironmentsHighestPythonIsTheSitePackagesWhenNothingElseNamesOne() throws IOException {
    Path venv = temp.resolve("venv");
    Files.createDirectories(venv.resolve("lib/python3.9/site-packages"));
    Path highest = Files.createDirectories(venv.resolve("lib/python3.12/site-packages"));
    Host host = new Host(Map.of("VIRTUAL_ENV", venv.toString()), Optional.empty(), Optional.empty(), List.of(""),
        Optional.empty(), Optional.empty(), List.of());
    assertEquals(new TeSitePackages(Optional.of(highest), "environment VIRTUAL_ENV", false),
        TeSitePackages.choose(Optional.empty(), Optional.empty(), host));
    assertEquals(new TeSitePackages(Optional.empty(), "none", false),
        TeSitePackages.choose(Optional.empty(), Optional.empty(), Host.bare()));
  }

}
