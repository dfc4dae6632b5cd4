package dev.tewheel.runtime.internal.search;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.bundle.manifest.ManifestEntry;
import dev.tewheel.bundle.manifest.ManifestException;
import dev.tewheel.bundle.manifest.Placement;
import dev.tewheel.bundle.ncclep.NcclEpCandidate;
import dev.tewheel.bundle.ncclep.NcclEpFunctions;
import dev.tewheel.bundle.ncclep.NcclEpLibraryName;
import dev.tewheel.bundle.ncclep.NcclEpSelection;
import dev.tewheel.bundle.ncclep.NcclEpVersion;
import dev.tewheel.loader.ElfFiles;
import dev.tewheel.loader.Environment;
import dev.tewheel.runtime.internal.ffm.HostMachine;
import dev.tewheel.runtime.internal.ffm.Libc;
import dev.tewheel.runtime.internal.host.LinkerHost;
import dev.tewheel.runtime.internal.host.LiveLoader;
import dev.tewheel.runtime.report.Availability;
import dev.tewheel.runtime.report.Dependency;
import dev.tewheel.runtime.report.LoadPrediction;
import dev.tewheel.runtime.report.NcclStatus;
import dev.tewheel.runtime.report.NcclVersion;
import dev.tewheel.runtime.report.Provenance;
import dev.tewheel.runtime.report.Provenance.Origin;
import dev.tewheel.runtime.report.SearchStep;
import dev.tewheel.runtime.report.SearchStep.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Finds the bundle and applies the selection rule; {@code availability()} and {@code load()} both start here, so
 * they cannot disagree. The search, in order: the API's path, system property {@code te.wheelLib}, environment
 * {@code TE_WHEEL_LIB}, environment {@code NCCL_EP_HOME} (its {@code lib/}, for the EP library only), then a
 * bundle on the class path ({@link ClasspathBundles#locate}). The first of the first three that is set decides, even
 * when it is no folder (a value someone set is never silently passed over); NCCL_EP_HOME is used when its
 * {@code lib/} holds a candidate.
 */
public final class Resolver {
  /** Where a bundle came from. */
  public enum Kind { WHEEL_LIB, NCCL_EP_HOME, CLASS_PATH }

  /**
   * A bundle the search settled on.
   *
   * @param folder the wheel_lib (or NCCL_EP_HOME) folder
   * @param kind where it came from
   * @param manifest its te-wheel-lib.json, when it has one
   */
  public record Bundle(Path folder, Kind kind, Optional<Manifest> manifest) {
    /** libtransformer_engine.so as the manifest (else the default layout) places it; none in NCCL_EP_HOME. */
    public Optional<Path> transformerEngineLibrary() {
      if (kind == Kind.NCCL_EP_HOME) {
        return Optional.empty();
      }
      return Optional.ofNullable(WheelLibPaths.inside(folder, Placement.transformerEngineLibrary(manifest)));
    }

    /** The folder NCCL_EP_HOME must name for NCCL EP's JIT to find the shipped headers, if the bundle ships them. */
    public Optional<Path> ncclEpHome() {
      return kind == Kind.NCCL_EP_HOME ? Optional.of(folder) : Placement.ncclEpHome(folder, manifest);
    }
  }

  /**
   * The search's outcome.
   *
   * @param steps every step, in order
   * @param bundle the bundle, if one was found
   * @param problem why the bundle (or its absence) stops loading, if it does
   */
  public record Located(List<SearchStep> steps, Optional<Bundle> bundle, Optional<String> problem) {}

  /** The full answer: the report, and the bundle behind it. */
  public record Resolution(Availability availability, Optional<Bundle> bundle) {}

  /** The search's steps, in order: the first three name a wheel_lib folder, the first set one decides. */
  private static final String[] STEPS = {"API TeRuntime.Builder.wheelLib",
      "system property " + Config.WHEEL_LIB_PROPERTY, "environment " + Config.WHEEL_LIB_ENV,
      "environment " + Config.NCCL_EP_HOME_ENV, "class path"};

  private Resolver() {}

  /** The search alone, with the bundle's integrity checked; loading the TE library needs no more. */
  public static Located locate(Config config) {
    List<SearchStep> steps = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      String source = STEPS[i];
      // Each read only when the one before is unset: the environment is read through libc.
      String value = switch (i) {
        case 0 -> config.wheelLib() == null ? null : config.wheelLib().toString();
        case 1 -> Config.property(Config.WHEEL_LIB_PROPERTY);
        default -> Config.nonBlank(Libc.getenv(Config.WHEEL_LIB_ENV));
      };
      if (value == null) {
        steps.add(new SearchStep(source, null, Outcome.NOT_SET, ""));
        continue;
      }
      Path folder = Config.path(source, value).toAbsolutePath().normalize();
      if (!Files.isDirectory(folder)) {
        steps.add(new SearchStep(source, value, Outcome.REFUSED,
            "not a folder; the search stops at a value someone set"));
        notTried(steps, i + 1);
        return new Located(steps, Optional.empty(), Optional.of(source + " names " + value + ", which is not a folder"));
      }
      steps.add(new SearchStep(source, value, Outcome.USED, ""));
      notTried(steps, i + 1);
      return wheelLib(steps, folder, config.effectiveVerifyDigests());
    }
    String home = Config.nonBlank(Libc.getenv(Config.NCCL_EP_HOME_ENV));
    String homeSource = STEPS[3];
    if (home == null) {
      steps.add(new SearchStep(homeSource, null, Outcome.NOT_SET, ""));
    } else if (Environment.setByRuntime(Config.NCCL_EP_HOME_ENV, home)) {
      steps.add(new SearchStep(homeSource, home, Outcome.PASSED,
          "set by te-runtime for the JIT headers, not a user's choice"));
    } else {
      Path folder = Path.of(home).toAbsolutePath().normalize();
      List<Path> found = candidates(folder.resolve("lib"));
      if (found.isEmpty()) {
        steps.add(new SearchStep(homeSource, home, Outcome.PASSED,
            "no libnccl_ep.so* in " + folder.resolve("lib")));
      } else {
        steps.add(new SearchStep(homeSource, home, Outcome.USED, folder.resolve("lib").toString()));
        notTried(steps, 4);
        return new Located(steps, Optional.of(new Bundle(folder, Kind.NCCL_EP_HOME, Optional.empty())),
            Optional.empty());
      }
    }
    return ClasspathBundles.locate(config, steps);
  }

  /** The search, the selection rule, the check for a copy loaded elsewhere and the NCCL gate. */
  public static Resolution resolve(Config config) {
    return resolve(config, locate(config));
  }

  /** {@link #resolve(Config)} over a search already made. */
  public static Resolution resolve(Config config, Located located) {
    Optional<Bundle> bundle = located.bundle();
    Optional<Path> bundleFolder = bundle.isPresent() ? Optional.of(bundle.get().folder()) : Optional.empty();
    Optional<Manifest> manifest = bundle.isPresent() ? bundle.get().manifest() : Optional.empty();
    Optional<ManifestEntry> entry = manifest.isPresent() ? manifest.get().ncclEpLibrary() : Optional.empty();

    Integer configured = config.effectiveNcclEpMajor();
    int major;
    Provenance majorSource;
    if (entry.isPresent() && entry.get().major() != null) {
      major = entry.get().major();
      majorSource = new Provenance(Origin.MANIFEST, "the manifest" + (configured != null
          && configured != major ? "; the configured " + configured + " does not apply to a bundle built for " + major
          : ""));
    } else if (configured != null) {
      major = configured;
      majorSource = config.ncclEpMajorSource();
    } else {
      major = NcclEpSelection.DEFAULT_MAJOR;
      majorSource = new Provenance(Origin.DEFAULT, "the default of this te-runtime release");
    }

    List<Path> files = new ArrayList<>();
    Path preferred = null;
    // The file TE's provider will open: te-runtime vets that one, or refuses (docs/runtime.md).
    Optional<TeProvider> provider = bundle.isPresent() ? TeProvider.choice(bundle.get().transformerEngineLibrary(),
        bundle.get().ncclEpHome(), major) : Optional.empty();
    // With verifyDigests, only what the manifest lists (and so vouches for) is loaded.
    boolean listedOnly = manifest.isPresent() && config.effectiveVerifyDigests();
    if (bundle.isPresent()) {
      Path folder = bundle.get().folder();
      if (entry.isPresent()) {
        preferred = WheelLibPaths.inside(folder, entry.get().path());
        if (preferred != null) {
          files.add(preferred);
        }
      } else if (listedOnly) {
        // nothing: an NCCL EP library the manifest does not list is not vouched for
      } else if (bundle.get().kind() == Kind.NCCL_EP_HOME) {
        files.addAll(candidates(folder.resolve("lib")));
      } else {
        Set<Path> unique = new LinkedHashSet<>();
        Placement.ncclEpLibraryFolders().forEach(f -> unique.addAll(candidates(folder.resolve(f))));
        files.addAll(unique);
      }
      if (entry.isEmpty()) {
        // No manifest names the file: prefer the one TE's provider will open, so both load the same.
        preferred = provider.isPresent() ? provider.get().file() : null;
      }
    }
    NcclEpSelection selection =
        NcclEpSelection.select(files, major, HostMachine.current(), preferred, Set.copyOf(NcclEpFunctions.REQUIRED),
            ElfFiles::read);

    Optional<String> providerRefusal = Optional.empty();
    if (selection.chosen().isPresent() && provider.isPresent()
        && !WheelLibPaths.sameFile(provider.get().file(), selection.chosen().get().file())) {
      Bundle vetted = bundle.orElseThrow();
      providerRefusal = Optional.of(provider.get().refusal(selection.chosen().get().file(),
          vetted.kind() == Kind.NCCL_EP_HOME, vetted.ncclEpHome()));
    }
    Optional<Path> elsewhere = loadedElsewhere(selection.chosen());
    NcclStatus nccl = NcclGate.probe(Discovery.nccl(config, bundleFolder), config.effectiveMinimumNcclVersion());
    List<Dependency> dependencies = selection.chosen().isPresent()
        ? dependencies(selection.chosen().get().file(), nccl) : List.of();
    Optional<Dependency> missing = dependencies.stream().filter(d -> !d.found()).findFirst();
    // te-runtime opens NCCL EP with RTLD_NOW, after loadNccl() put the gate's NCCL in the global scope.
    Optional<LoadPrediction> prediction = Optional.empty();
    if (selection.chosen().isPresent() && nccl.ok() && missing.isEmpty()) {
      // A gate that passed read both the file and its version.
      prediction = LiveLoader.predict(selection.chosen().get().file(), true, preloads(nccl), List.of(),
          Map.of(nccl.library().orElseThrow(), "NCCL " + nccl.version().orElseThrow()));
    }

    String reason;
    boolean available = false;
    if (located.problem().isPresent()) {
      reason = located.problem().get();
    } else if (listedOnly && entry.isEmpty()) {
      reason = "the manifest of " + bundle.orElseThrow().folder() + " lists no NCCL EP library, so it vouches for"
          + " none, and with " + Config.VERIFY_DIGESTS_PROPERTY + "=true te-runtime loads only the libraries the"
          + " manifest lists. Rebuild the bundle with te:assemble-wheel-lib given NCCL EP, or set "
          + Config.VERIFY_DIGESTS_PROPERTY + "=false";
    } else if (selection.candidates().isEmpty()) {
      reason = "no NCCL EP library in the bundle " + bundle.map(b -> b.folder().toString()).orElse("")
          + " (looked for " + NcclEpLibraryName.BASE + ", " + NcclEpLibraryName.BASE + ".<N> and "
          + NcclEpLibraryName.BASE + ".<N>.<m>.<p>)";
    } else if (selection.chosen().isEmpty()) {
      reason = "no acceptable NCCL EP library: " + selection.candidates().stream()
          .map(c -> c.file().getFileName() + ": " + c.reason()).collect(Collectors.joining("; "));
    } else if (providerRefusal.isPresent()) {
      reason = providerRefusal.get();
    } else if (elsewhere.isPresent()) {
      NcclEpCandidate chosen = selection.chosen().get();
      reason = alreadyLoaded(chosen.soname(), chosen.file(), elsewhere.get());
    } else if (!nccl.ok()) {
      reason = nccl.detail();
    } else if (missing.isPresent()) {
      Dependency d = missing.get();
      // The search ends at a file that is no library (no ELF object, a FIFO, a device): what and where it is.
      reason = d.file().isEmpty() && !d.foundDetail().isEmpty()
          ? d.name() + " (needed by " + d.neededBy() + "): " + d.foundDetail()
          : d.problem() + ": dlopen would fail. " + (d.file().isEmpty()
          ? "Make it findable (LD_LIBRARY_PATH, ldconfig) or load it first" + (d.name().startsWith("libcuda.so")
              ? "; it is the CUDA driver, which an NVIDIA driver installation provides" : "")
          : "Use a " + d.neededBy() + " built for this system (an older build environment, e.g. a manylinux"
              + " image), or a newer " + d.name());
    } else if (prediction.isPresent() && !prediction.get().loads()) {
      reason = prediction.get().detail();
    } else {
      reason = "available";
      available = true;
    }
    return new Resolution(new Availability(available, reason, located.steps(), bundleFolder, major, majorSource,
        selection.candidates().stream().map(Resolver::candidate).toList(), selection.chosen().map(Resolver::candidate),
        elsewhere, dependencies, nccl), bundle);
  }

  /** The bundle's verdict in te-runtime's terms (bundle's types stay out of te-runtime's API). */
  private static dev.tewheel.runtime.report.NcclEpCandidate candidate(NcclEpCandidate judged) {
    return new dev.tewheel.runtime.report.NcclEpCandidate(judged.file(), judged.accepted(), judged.reason(),
        judged.soname(), judged.version().map(Resolver::version));
  }

  /** NCCL EP's version as the bundle reads it (its code is always MAJOR*10000 + MINOR*100 + PATCH). */
  public static NcclVersion version(NcclEpVersion ep) {
    return new NcclVersion(ep.major(), ep.minor(), ep.patch());
  }

  /** The sentence for a library with the chosen SONAME that another component loaded from another file. */
  public static String alreadyLoaded(Optional<String> soname, Path chosen, Path other) {
    return soname.orElse("NCCL EP") + " is already loaded by another component from " + other
        + "; loading " + chosen + " beside it would give this process two copies of NCCL EP."
        + " Point te-runtime at that copy's bundle, or load te-runtime's NCCL EP before that component";
  }

  /** Where dlopen would take each DT_NEEDED of the chosen library from; NCCL is the copy the gate read. */
  private static List<Dependency> dependencies(Path library, NcclStatus nccl) {
    try {
      return LiveLoader.needed(library, ElfFiles.readWithoutSymbols(library), preloads(nccl));
    } catch (IOException e) {
      return List.of();
    }
  }

  /** What te-runtime loads before NCCL EP: the libnccl.so.2 the gate read. */
  private static Map<String, Path> preloads(NcclStatus nccl) {
    return nccl.library().isPresent() ? Map.of(NcclGate.SONAME, nccl.library().get()) : Map.of();
  }

  private static Optional<Path> loadedElsewhere(Optional<NcclEpCandidate> chosen) {
    if (chosen.isEmpty() || chosen.get().soname().isEmpty()) {
      return Optional.empty();
    }
    return LinkerHost.loadedElsewhere(chosen.get().soname().get(), chosen.get().file());
  }

  private static Located wheelLib(List<SearchStep> steps, Path folder, boolean hashes) {
    Path manifestFile = folder.resolve(Layout.MANIFEST);
    Optional<Manifest> manifest = Optional.empty();
    Optional<String> problem = Optional.empty();
    if (Files.isRegularFile(manifestFile)) {
      try {
        manifest = Optional.of(Manifest.read(manifestFile));
        List<String> problems = Digests.check(folder, manifest.get().files(), hashes);
        if (!problems.isEmpty()) {
          problem = Optional.of("the bundle in " + folder + " does not match its manifest: "
              + String.join("; ", problems) + ". Rebuild it with te:assemble-wheel-lib, or check it with"
              + " te:verify-wheel-lib");
        }
      } catch (ManifestException e) {
        problem = Optional.of(e.getMessage());
      } catch (IOException e) {
        problem = Optional.of("could not read " + manifestFile + ": " + e);
      }
    }
    return new Located(steps, Optional.of(new Bundle(folder, Kind.WHEEL_LIB, manifest)), problem);
  }

  private static List<Path> candidates(Path folder) {
    try {
      return NcclEpSelection.candidatesIn(folder);
    } catch (IOException e) {
      return List.of();
    }
  }

  private static void notTried(List<SearchStep> steps, int from) {
    for (int i = from; i < STEPS.length; i++) {
      steps.add(new SearchStep(STEPS[i], null, Outcome.NOT_TRIED, ""));
    }
  }
}
