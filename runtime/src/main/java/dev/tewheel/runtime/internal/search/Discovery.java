package dev.tewheel.runtime.internal.search;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.elf.ElfMachine;
import dev.tewheel.loader.FoundBy;
import dev.tewheel.loader.Host;
import dev.tewheel.loader.SearchPaths;
import dev.tewheel.loader.UnnamedFolders;
import dev.tewheel.loader.te.TeFoundBy;
import dev.tewheel.loader.te.TeLibrary;
import dev.tewheel.loader.te.TeLoadSequence;
import dev.tewheel.loader.te.TeSitePackages;
import dev.tewheel.runtime.internal.ffm.HostMachine;
import dev.tewheel.runtime.internal.ffm.Libc;
import dev.tewheel.runtime.internal.ffm.LibraryVersions;
import dev.tewheel.runtime.internal.host.LinkerHost;
import dev.tewheel.runtime.internal.host.LiveLoader;
import dev.tewheel.runtime.internal.host.ProcMaps;
import dev.tewheel.runtime.report.LoadPrediction;
import dev.tewheel.runtime.report.NativeLibrary;
import dev.tewheel.runtime.report.NativeWorld;
import dev.tewheel.runtime.report.NcclStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * te-runtime's view of TE's search order: the loader model's {@link TeLoadSequence} over this process (its
 * environment as {@code getenv} sees it now, the copies of TE's libraries mapped in it, te-runtime's settings, and
 * the loader search of a plain dlopen by name), turned into the {@link NativeWorld} report. What only the live
 * process can tell is added here: the version a mapped copy reports through its own function. Nothing is loaded.
 */
public final class Discovery {
  /** te.native.&lt;name&gt;.path / .skip; TE_NATIVE_&lt;NAME&gt;_PATH / _SKIP. */
  public static final String PROPERTY_PREFIX = TeLoadSequence.PROPERTY_PREFIX;
  public static final String SITE_PACKAGES_PROPERTY = "te.sitePackages";
  /** The last system root of TE's search; a property so tests (and odd installations) can move it. */
  public static final String DEFAULT_CUDA_ROOT_PROPERTY = "te.defaultCudaRoot";
  public static final String DEFAULT_CUDA_ROOT = TeLoadSequence.DEFAULT_CUDA_ROOT.toString();

  private Discovery() {}

  /**
   * The NCCL the search chose, for the NCCL gate: empty when the search leaves it to dlopen's own search.
   *
   * @param source {@link NcclStatus.Source#CONFIGURED} (te.ncclLibrary, the builder) or
   *     {@link NcclStatus.Source#DISCOVERED} (a system root, a pip wheel, or none found)
   */
  public record NcclChoice(Optional<Path> file, NcclStatus.Source source, String detail) {}

  /** The site-packages of TE's pip-wheel step for a bundle folder ({@link TeSitePackages#choose}). */
  public static TeSitePackages sitePackages(Optional<Path> bundleFolder) {
    return sitePackages(bundleFolder, LinkerHost.environmentOnly());
  }

  private static TeSitePackages sitePackages(Optional<Path> bundleFolder, Host host) {
    String configured = Config.property(SITE_PACKAGES_PROPERTY);
    return TeSitePackages.choose(bundleFolder, configured == null ? Optional.empty()
        : Optional.of(TeSitePackages.of(Path.of(configured), "system property " + SITE_PACKAGES_PROPERTY)), host);
  }

  /** The NCCL te-runtime's search chooses (configured, else system or pip wheel), for the NCCL gate and loadNccl(). */
  public static NcclChoice nccl(Config config, Optional<Path> bundleFolder) {
    Path configured = config.effectiveNcclLibrary();
    if (configured != null) {
      return new NcclChoice(Optional.of(configured), NcclStatus.Source.CONFIGURED, "configured");
    }
    TeLoadSequence.Found found = TeLoadSequence.nccl(request(config, bundleFolder, Optional.empty(), List.of()));
    // One found by dlopen's search is left to dlopen's search itself.
    if (found.file().isPresent() && found.foundBy() != TeFoundBy.DLOPEN) {
      return new NcclChoice(found.file(), NcclStatus.Source.DISCOVERED, found.foundBy() + ": " + found.detail());
    }
    return new NcclChoice(Optional.empty(), NcclStatus.Source.DISCOVERED, "dlopen's search");
  }

  /** The whole world, with provenance; loads nothing. */
  public static NativeWorld discover(Config config, Optional<Path> bundleFolder, Optional<Path> teLibrary) {
    TeLoadSequence.Result result = TeLoadSequence.run(request(config, bundleFolder, teLibrary, mapped()));
    List<NativeLibrary> libraries = new ArrayList<>();
    for (TeLoadSequence.Found found : result.libraries()) {
      libraries.add(nativeLibrary(found));
    }
    List<String> problems = new ArrayList<>(result.problems());
    result.cudaMismatch(libraries.get(0).version()).ifPresent(problems::add);
    List<String> warnings = new ArrayList<>(result.warnings());
    warnings.addAll(UnnamedFolders.warnings(FoundBy.LD_LIBRARY_PATH.toString(),
        SearchPaths.ldLibraryPathEntries(LinkerHost.environmentOnly()), "libraries"));
    Optional<LoadPrediction> prediction = teLibrary.filter(Files::isRegularFile)
        .flatMap(te -> transformerEngine(libraries, te));
    return new NativeWorld(libraries, result.site().folder(), result.site().source(), result.toolkit(),
        result.variant(), result.variantSource(), warnings, problems, prediction);
  }

  /**
   * Whether every symbol {@code te} imports would bind once the world's libraries are loaded before it, as
   * {@code loadTransformerEngine()} loads them: each with RTLD_GLOBAL (so in the global scope), and each the copy
   * TE's DT_NEEDED of its SONAME binds to. TE itself is opened with RTLD_LAZY, so its own BIND_NOW flag decides.
   */
  public static Optional<LoadPrediction> transformerEngine(List<NativeLibrary> libraries, Path te) {
    Map<String, Path> preloads = new HashMap<>();
    List<Path> global = new ArrayList<>();
    Map<Path, String> labels = new HashMap<>();
    for (NativeLibrary library : libraries) {
      if (library.file().isEmpty()) {
        continue;
      }
      Path file = library.file().get();
      preloads.putIfAbsent(library.soname().orElse(file.getFileName().toString()), file);
      global.add(file);
      for (Path companion : library.companions()) {
        preloads.putIfAbsent(companion.getFileName().toString(), companion); // cuDNN's parts: named by SONAME
        global.add(companion);
      }
      if (library.version().isPresent()) {
        labels.put(file, (library.name().equals("nccl") ? "NCCL" : library.name()) + " " + library.version().get());
      }
    }
    return LiveLoader.predict(te, false, preloads, global, labels);
  }

  /** The sequence's input for this process. */
  private static TeLoadSequence.Request request(Config config, Optional<Path> bundleFolder, Optional<Path> teLibrary,
      List<Host.Mapped> mapped) {
    Host host = LinkerHost.host(mapped);
    Map<String, String> properties = new HashMap<>();
    for (TeLibrary library : TeLibrary.ALL) {
      for (String key : List.of(PROPERTY_PREFIX + library.name() + ".path", PROPERTY_PREFIX + library.name()
          + ".skip")) {
        Optional.ofNullable(Config.property(key)).ifPresent(value -> properties.put(key, value));
      }
    }
    String defaultRoot = System.getProperty(DEFAULT_CUDA_ROOT_PROPERTY, DEFAULT_CUDA_ROOT);
    Optional<TeLoadSequence.Configured> nccl = Optional.ofNullable(config.effectiveNcclLibrary())
        .map(file -> new TeLoadSequence.Configured(file, config.ncclLibrary() != null
            ? "TeRuntime.Builder.ncclLibrary" : "system property " + Config.NCCL_LIBRARY_PROPERTY));
    return new TeLoadSequence.Request(host, sitePackages(bundleFolder, host), properties,
        defaultRoot.isEmpty() ? Optional.empty() : Optional.of(Path.of(defaultRoot)), nccl, teLibrary, dlopen());
  }

  /** dlopen by name as te-runtime would do it: the loader search, an unnamed folder not searched (it loads it). */
  private static TeLoadSequence.DlopenSearch dlopen() {
    ElfMachine machine = HostMachine.current();
    if (machine == null) {
      return TeLoadSequence.DlopenSearch.NONE;
    }
    return name -> LiveLoader.byNameInNamedFolders(name, machine, new ArrayList<>())
        .map(hit -> new TeLoadSequence.DlopenSearch.Hit(hit.file().get(), hit.foundBy().toString()));
  }

  /** The mapped copies of TE's libraries, each SONAME's copies in load order. */
  private static List<Host.Mapped> mapped() {
    Map<String, List<Path>> bySoname = ProcMaps.bySoname(TeLibrary.ALL.stream().map(TeLibrary::base).toList());
    List<Host.Mapped> mapped = new ArrayList<>();
    for (Map.Entry<String, List<Path>> e : bySoname.entrySet()) {
      // The scope is not asked of TE's sequence; the load prediction takes it from dlopen's flags.
      inLoadOrder(e.getKey(), e.getValue()).forEach(file -> mapped.add(new Host.Mapped(e.getKey(), file,
          Host.Scope.GLOBAL)));
    }
    return mapped;
  }

  /**
   * The copies of a SONAME with the first loaded first, the one a DT_NEEDED of it binds to, which dlopen's
   * RTLD_NOLOAD lookup returns (the maps are in address order, not load order).
   */
  private static List<Path> inLoadOrder(String soname, List<Path> copies) {
    if (copies.size() < 2) {
      return copies;
    }
    Path first = LinkerHost.loadedFile(soname).filter(f -> copies.stream().anyMatch(c -> WheelLibPaths.sameFile(c, f)))
        .orElse(copies.get(0));
    List<Path> ordered = new ArrayList<>();
    copies.stream().filter(c -> WheelLibPaths.sameFile(c, first)).forEach(ordered::add);
    copies.stream().filter(c -> !WheelLibPaths.sameFile(c, first)).forEach(ordered::add);
    return ordered;
  }

  /** The report of one library: the sequence's answer, with the version a mapped copy reports of itself. */
  private static NativeLibrary nativeLibrary(TeLoadSequence.Found found) {
    String name = found.library().name();
    Optional<String> version = Optional.empty();
    String versionSource = "none";
    if (found.file().isPresent() && found.mapped().stream().anyMatch(c -> WheelLibPaths.sameFile(c,
        found.file().get()))) {
      Libc.Opened opened = Libc.dlopen(found.file().get().toString(), Libc.RTLD_LAZY | Libc.RTLD_NOLOAD);
      if (opened.ok()) {
        try {
          version = LibraryVersions.read(name, opened.handle());
          if (version.isPresent()) {
            versionSource = LibraryVersions.functionOf(name).orElse("function");
          }
        } finally {
          Libc.dlclose(opened.handle());
        }
      }
    }
    if (version.isEmpty()) {
      version = found.version();
      versionSource = found.versionSource();
    }
    return new NativeLibrary(name, found.file(), found.companions(), found.soname(), version,
        versionSource, NativeLibrary.FoundBy.valueOf(found.foundBy().name()), found.detail(), found.mapped(),
        found.problem());
  }
}
