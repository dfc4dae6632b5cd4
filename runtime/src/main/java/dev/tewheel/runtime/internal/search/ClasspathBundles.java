package dev.tewheel.runtime.internal.search;

import dev.tewheel.bundle.classpath.FoundBundle;
import dev.tewheel.bundle.cuda.CudaVariant;
import dev.tewheel.bundle.cuda.CudaVariantChoice;
import dev.tewheel.bundle.cuda.CudaVariantChoice.Choice;
import dev.tewheel.bundle.cuda.CudaVariantChoice.Signals;
import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.elf.ElfMachine;
import dev.tewheel.runtime.internal.ffm.HostMachine;
import dev.tewheel.runtime.internal.ffm.Libc;
import dev.tewheel.runtime.internal.ffm.VersionGetter;
import dev.tewheel.runtime.internal.host.LiveLoader;
import dev.tewheel.runtime.internal.search.Resolver.Bundle;
import dev.tewheel.runtime.internal.search.Resolver.Kind;
import dev.tewheel.runtime.internal.search.Resolver.Located;
import dev.tewheel.runtime.report.Dependency;
import dev.tewheel.runtime.report.SearchStep;
import dev.tewheel.runtime.report.SearchStep.Outcome;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The search's class-path step: the bundles under one resource folder (bundle's {@link FoundBundle}: the cu12 and
 * cu13 classifier jars of one TE release), the variant configured, what the machine says of CUDA, and bundle's choice
 * by them ({@link CudaVariantChoice}).
 */
final class ClasspathBundles {
  private ClasspathBundles() {}

  /**
   * The search's last step, after the named folders: the bundles under the resource folder, bundle's choice among
   * several by CUDA variant, and the chosen one extracted to the cache ({@link ClasspathBundle}).
   */
  static Located locate(Config config, List<SearchStep> steps) {
    String resources = config.effectiveResourceFolder();
    String classPathSource = "class path resource " + resources;
    Path cache = config.effectiveCacheFolder();
    try {
      List<FoundBundle> found = find(config.effectiveClassLoader(), resources);
      if (found.isEmpty()) {
        steps.add(new SearchStep(classPathSource, null, Outcome.PASSED, "no " + Layout.MANIFEST + " there"));
        return new Located(steps, Optional.empty(), Optional.of("no bundle found: give a wheel_lib folder"
            + " (TeRuntime.Builder.wheelLib, -D" + Config.WHEEL_LIB_PROPERTY + ", " + Config.WHEEL_LIB_ENV
            + " or the CLI's --wheel-lib), set " + Config.NCCL_EP_HOME_ENV + ", or package one on the class path under "
            + resources));
      }
      Integer configured = configuredVariant();
      FoundBundle chosen = found.get(0);
      String label = classPathSource;
      if (found.size() > 1 || configured != null) {
        var choice = choose(found, configured, () -> probe(
            found.stream().flatMap(b -> b.variant().stream()).distinct().sorted().toList(), HostMachine.current()));
        chosen = choice.chosen();
        label = classPathSource + " in " + chosen.where();
        steps.add(new SearchStep("CUDA variant of " + found.size() + " class-path bundle"
            + (found.size() == 1 ? "" : "s"), chosen.where(), Outcome.USED, choice.reason() + "; bundles: "
            + found.stream().map(FoundBundle::describe).collect(Collectors.joining("; "))
            + choice.warnings().stream().map(w -> "; warning: " + w).collect(Collectors.joining())));
      }
      Optional<ClasspathBundle.Extracted> extracted = ClasspathBundle.extract(chosen.files(), label, cache);
      if (extracted.isEmpty()) {
        throw new BundleProblem(label + "/" + Layout.MANIFEST + " vanished while te-runtime read it");
      }
      ClasspathBundle.Extracted bundle = extracted.get();
      steps.add(new SearchStep(classPathSource, bundle.folder().toString(),
          Outcome.USED, bundle.extractedNow() ? "extracted now" : "extracted before, verified"));
      return new Located(steps,
          Optional.of(new Bundle(bundle.folder(), Kind.CLASS_PATH, Optional.of(bundle.manifest()))), Optional.empty());
    } catch (BundleProblem e) {
      steps.add(new SearchStep(classPathSource, cache.toString(), Outcome.REFUSED, ""));
      return new Located(steps, Optional.empty(), Optional.of(e.getMessage()));
    }
  }

  /** Every bundle whose manifest is under {@code folder}, in class-path order, each once. */
  public static List<FoundBundle> find(ClassLoader loader, String folder) throws BundleProblem {
    try {
      return FoundBundle.find(loader, folder);
    } catch (IOException e) {
      throw new BundleProblem("could not list the class path resources " + folder + "/" + Layout.MANIFEST + ": "
          + e.getMessage(), e);
    }
  }

  /** The variant {@code te.cudaVariant} names, or null when unset. */
  public static Integer configuredVariant() {
    String text = Config.property(CudaVariantChoice.PROPERTY);
    if (text == null) {
      return null;
    }
    return CudaVariant.parse(text).orElseThrow(() -> new IllegalArgumentException("system property "
        + CudaVariantChoice.PROPERTY + "='" + text + "' is no CUDA variant: give a CUDA major such as 12 or cu13"));
  }

  /** Bundle's {@link CudaVariantChoice#choose}, its refusal a BundleProblem. */
  public static Choice<FoundBundle> choose(List<FoundBundle> bundles, Integer configured, Supplier<Signals> probe)
      throws BundleProblem {
    try {
      return CudaVariantChoice.choose(bundles, configured, probe);
    } catch (CudaVariantChoice.Refused e) {
      throw new BundleProblem(e.getMessage(), e);
    }
  }

  /** The driver's supported CUDA version and the libcudart.so.N the loader search finds, for these variants. */
  public static Signals probe(Iterable<Integer> variants, ElfMachine machine) {
    Map<Integer, Path> cudarts = new TreeMap<>();
    for (int variant : variants) {
      LiveLoader.byNameInNamedFolders("libcudart.so." + variant, machine, new ArrayList<>())
          .flatMap(Dependency::file)
          .ifPresent(file -> cudarts.put(variant, file));
    }
    // Loaded below: found in named folders only (UnnamedFolders).
    Optional<Path> libcuda = LiveLoader.byNameInNamedFolders("libcuda.so.1", machine, new ArrayList<>())
        .flatMap(Dependency::file);
    if (libcuda.isEmpty()) {
      return new Signals(Optional.empty(), "libcuda.so.1 not found", cudarts);
    }
    String where = "cuDriverGetVersion of " + libcuda.get();
    // Opened for one call and closed: loading the driver is what any CUDA program does first, and it needs no cuInit.
    // CUresult cuDriverGetVersion(int *) has the version getters' shape.
    Libc.Opened opened = Libc.dlopen(libcuda.get().toString(), Libc.RTLD_LAZY | Libc.RTLD_LOCAL);
    if (!opened.ok()) {
      return new Signals(Optional.empty(), "could not open " + libcuda.get() + ": " + opened.error(), cudarts);
    }
    try {
      Optional<MemorySegment> function = Libc.dlsym(opened.handle(), "cuDriverGetVersion");
      if (function.isEmpty()) {
        return new Signals(Optional.empty(), libcuda.get() + " lacks cuDriverGetVersion", cudarts);
      }
      return new Signals(Optional.of(VersionGetter.read(function.get(), 1, where)), where, cudarts);
    } catch (IllegalStateException e) {
      return new Signals(Optional.empty(), e.getMessage(), cudarts);
    } finally {
      Libc.dlclose(opened.handle());
    }
  }
}
