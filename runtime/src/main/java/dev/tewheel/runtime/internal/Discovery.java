package dev.tewheel.runtime.internal;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.elf.ElfMachine;
import dev.tewheel.runtime.Dependency;
import dev.tewheel.runtime.LoadPrediction;
import dev.tewheel.runtime.NativeLibrary.FoundBy;
import dev.tewheel.runtime.NativeLibrary;
import dev.tewheel.runtime.NativeWorld;
import dev.tewheel.runtime.NcclStatus;
import java.io.IOException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds TE's native world with TE's search order ({@code transformer_engine/common/__init__.py}), per library: an
 * explicit override ({@code te.native.<name>.path} / {@code .skip}, or {@code TE_NATIVE_<NAME>_PATH} /
 * {@code _SKIP}); the system ({@code $<LIB>_HOME}, {@code $<LIB>_PATH}, {@code $CUDA_HOME}, {@code $CUDA_PATH},
 * {@code /usr/local/cuda}: the whole tree, stubs skipped, the highest file name first); a plain dlopen by name; then
 * NVIDIA's pip wheels under site-packages ({@code nvidia/cu13/<lib>/lib}, {@code nvidia/cu13/lib},
 * {@code nvidia/<lib>/lib}, {@code nvidia/cuda_<lib>/lib}). A library already mapped in the process wins over all
 * of them: the dynamic linker binds DT_NEEDED entries to it. Nothing is loaded.
 */
public final class Discovery {
  /** te.native.&lt;name&gt;.path / .skip; TE_NATIVE_&lt;NAME&gt;_PATH / _SKIP. */
  public static final String PROPERTY_PREFIX = "te.native.";
  public static final String SITE_PACKAGES_PROPERTY = "te.sitePackages";
  /** The last system root of TE's search; a property so tests (and odd installations) can move it. */
  public static final String DEFAULT_CUDA_ROOT_PROPERTY = "te.defaultCudaRoot";
  public static final String DEFAULT_CUDA_ROOT = "/usr/local/cuda";

  /**
   * One library of the world.
   *
   * @param name TE's short name
   * @param base the file name stem ({@code libcudart})
   * @param pipPackage the folder under {@code nvidia/} of its pip wheel
   * @param extraPipFolders real wheel folders TE's four patterns miss ({@code nvidia/cuda_runtime/lib} of
   *     nvidia-cuda-runtime-cu12)
   * @param wheel12 the pip wheel for CUDA 12
   * @param wheel13 the pip wheel for CUDA 13
   */
  record Entry(String name, String base, String pipPackage, List<String> extraPipFolders, String wheel12,
      String wheel13) {
    Pattern versioned() {
      return Pattern.compile(Pattern.quote(base) + "\\.so\\.(\\d+(?:\\.\\d+)*)");
    }

    String wheel(Optional<Integer> cuda) {
      if (cuda.isPresent() && cuda.get() == 12) {
        return wheel12;
      }
      if (cuda.isPresent() && cuda.get() >= 13) {
        return wheel13;
      }
      return wheel12 + " (CUDA 12) or " + wheel13 + " (CUDA 13)";
    }
  }

  /** In load order: cudart, cuBLASLt before cuBLAS, cuDNN (and its sub-libraries), NVRTC, cuRAND, NCCL. */
  static final List<Entry> ENTRIES = List.of(
      new Entry("cudart", "libcudart", "cudart", List.of("nvidia/cuda_runtime/lib"), "nvidia-cuda-runtime-cu12",
          "nvidia-cuda-runtime"),
      new Entry("cublasLt", "libcublasLt", "cublas", List.of(), "nvidia-cublas-cu12", "nvidia-cublas"),
      new Entry("cublas", "libcublas", "cublas", List.of(), "nvidia-cublas-cu12", "nvidia-cublas"),
      new Entry("cudnn", "libcudnn", "cudnn", List.of(), "nvidia-cudnn-cu12", "nvidia-cudnn-cu13"),
      new Entry("nvrtc", "libnvrtc", "nvrtc", List.of(), "nvidia-cuda-nvrtc-cu12", "nvidia-cuda-nvrtc"),
      new Entry("curand", "libcurand", "curand", List.of(), "nvidia-curand-cu12", "nvidia-curand"),
      new Entry("nccl", "libnccl", "nccl", List.of(), "nvidia-nccl-cu12", "nvidia-nccl-cu13"));

  /** cuDNN 9's sub-libraries, in an order where each one's DT_NEEDED siblings come first. */
  static final List<String> CUDNN_PARTS = List.of("graph", "engines_runtime_compiled", "engines_precompiled",
      "heuristic", "ops", "cnn", "adv");

  /** Without a CUDA toolkit these must come from pip wheels (TE: cuBLAS, cudart, cuDNN; cuBLASLt is cuBLAS's). */
  private static final List<String> PIP_WITHOUT_TOOLKIT = List.of("cudart", "cublasLt", "cublas", "cudnn");

  private static final Pattern DIST_INFO = Pattern.compile("transformer_engine_cu(\\d+)-.*\\.dist-info");

  /** lib*.so* files under a system root, walked once per process (the toolkit is thousands of files). */
  private static final Map<Path, RootIndex> ROOT_INDEX = new ConcurrentHashMap<>();

  /** A system root's libraries, and the folders its walk skipped (loops, unreadable), for the warnings. */
  private record RootIndex(List<Path> files, List<String> skipped) {}

  private Discovery() {}

  /** Where a library was found, before provenance is added. */
  record Found(Optional<Path> file, FoundBy foundBy, String detail, Optional<String> problem) {
    static Found of(Path file, FoundBy foundBy, String detail) {
      return new Found(Optional.of(file), foundBy, detail, Optional.empty());
    }
  }

  /**
   * The NCCL the search chose, for the NCCL gate: empty when the search leaves it to dlopen's own search.
   *
   * @param source {@link NcclStatus.Source#CONFIGURED} (te.ncclLibrary, the builder) or
   *     {@link NcclStatus.Source#DISCOVERED} (an override, a system root, a pip wheel, or none found)
   */
  public record NcclChoice(Optional<Path> file, NcclStatus.Source source, String detail) {}

  /**
   * The site-packages to search: the one an installed TE wheel's wheel_lib sits in, else {@code te.sitePackages},
   * else {@code $VIRTUAL_ENV/lib/python3.*}{@code /site-packages}.
   *
   * @param installedWheel whether {@code folder} is the one an installed TE wheel's wheel_lib sits in (its
   *     dist-info then names TE's CUDA variant)
   */
  public record SitePackages(Optional<Path> folder, String source, boolean installedWheel) {
    SitePackages(Optional<Path> folder, String source) {
      this(folder, source, false);
    }
  }

  public static SitePackages sitePackages(Optional<Path> bundleFolder) {
    if (bundleFolder.isPresent()) {
      Path folder = bundleFolder.get().toAbsolutePath().normalize();
      Path te = folder.getParent();
      if (folder.getFileName() != null && folder.getFileName().toString().equals("wheel_lib") && te != null
          && te.getFileName() != null && te.getFileName().toString().equals("transformer_engine")
          && te.getParent() != null) {
        return new SitePackages(Optional.of(te.getParent()), "installed TE wheel", true);
      }
    }
    String configured = Config.property(SITE_PACKAGES_PROPERTY);
    if (configured != null) {
      return new SitePackages(Optional.of(Path.of(configured).toAbsolutePath().normalize()),
          "system property " + SITE_PACKAGES_PROPERTY);
    }
    String venv = env("VIRTUAL_ENV");
    if (venv != null) {
      Path lib = Path.of(venv, "lib");
      try (Stream<Path> pythons = Files.list(lib)) {
        Optional<Path> site = pythons.filter(p -> p.getFileName().toString().startsWith("python3"))
            .map(p -> p.resolve("site-packages")).filter(Files::isDirectory)
            .max(Comparator.comparing(p -> versionKey(p.getParent().getFileName().toString().substring(6))));
        if (site.isPresent()) {
          return new SitePackages(site, "environment VIRTUAL_ENV");
        }
      } catch (IOException e) {
        // no lib/ folder: not a venv we can read
      }
    }
    return new SitePackages(Optional.empty(), "none");
  }

  /** The NCCL te-runtime's search chooses (override, system or pip wheel), for the NCCL gate and loadNccl(). */
  public static NcclChoice nccl(Config config, Optional<Path> bundleFolder) {
    Entry entry = entry("nccl");
    Path configured = config.effectiveNcclLibrary();
    if (configured != null) {
      return new NcclChoice(Optional.of(configured), NcclStatus.Source.CONFIGURED, "configured");
    }
    Found found = find(entry, sitePackages(bundleFolder).folder(), true);
    if (found.file().isPresent() && (found.foundBy() == FoundBy.SYSTEM || found.foundBy() == FoundBy.PIP_WHEEL
        || found.foundBy() == FoundBy.OVERRIDE)) {
      return new NcclChoice(found.file(), NcclStatus.Source.DISCOVERED, found.foundBy() + ": " + found.detail());
    }
    return new NcclChoice(Optional.empty(), NcclStatus.Source.DISCOVERED, "dlopen's search");
  }

  /** The whole world, with provenance; loads nothing. */
  public static NativeWorld discover(Config config, Optional<Path> bundleFolder, Optional<Path> teLibrary) {
    SitePackages site = sitePackages(bundleFolder);
    Map<String, List<Path>> mapped = ProcMaps.bySoname(ENTRIES.stream().map(Entry::base).toList());
    List<String> warnings = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, List<Path>> e : mapped.entrySet()) {
      List<Path> distinct = distinctFiles(inLoadOrder(e.getKey(), e.getValue()));
      if (distinct.size() > 1) {
        warnings.add("two different files with SONAME " + e.getKey() + " are mapped in this process: "
            + String.join(", ", distinct.stream().map(Path::toString).toList())
            + "; DT_NEEDED entries bind to the first loaded (" + distinct.get(0) + ")");
      }
    }
    // TE: a CUDA toolkit is present when NVRTC or cuRAND is found on the system (its roots or dlopen by name).
    final boolean toolkit = systemOrDlopen(entry("nvrtc")).file().isPresent()
        || systemOrDlopen(entry("curand")).file().isPresent();
    Optional<Integer> variant = Optional.empty();
    String variantSource = "unknown";
    if (site.installedWheel()) {
      try (Stream<Path> names = Files.list(site.folder().get())) {
        for (Path p : names.toList()) {
          Matcher m = DIST_INFO.matcher(p.getFileName().toString());
          if (m.matches()) {
            variant = Optional.of(Integer.parseInt(m.group(1)));
            variantSource = p.getFileName().toString();
          }
        }
      } catch (IOException e) {
        // no listing: the variant stays unknown
      }
    }
    if (variant.isEmpty() && teLibrary.isPresent() && Files.isRegularFile(teLibrary.get())) {
      try {
        for (String needed : ElfCache.readWithoutSymbols(teLibrary.get()).needed()) {
          Matcher m = Pattern.compile("libcudart\\.so\\.(\\d+)").matcher(needed);
          if (m.matches()) {
            variant = Optional.of(Integer.parseInt(m.group(1)));
            variantSource = teLibrary.get().getFileName() + " NEEDS " + needed;
          }
        }
      } catch (IOException e) {
        // unreadable: unknown
      }
    }
    List<NativeLibrary> libraries = new ArrayList<>();
    for (Entry entry : ENTRIES) {
      Found found = mappedCopy(entry, mapped).orElseGet(() -> overrideOrSkip(entry, config)
          .orElseGet(() -> toolkit || !PIP_WITHOUT_TOOLKIT.contains(entry.name()) ? find(entry, site.folder(), true)
              : pipOnly(entry, site.folder())));
      if (found.file().isEmpty() && found.problem().isEmpty() && found.foundBy() != FoundBy.SKIPPED) {
        String where = site.folder().map(f -> " into " + f).orElse(" (te-runtime knows no site-packages: set -D"
            + SITE_PACKAGES_PROPERTY + " or VIRTUAL_ENV)");
        String why = !toolkit && PIP_WITHOUT_TOOLKIT.contains(entry.name())
            ? "without a CUDA toolkit (neither NVRTC nor cuRAND on the system), " + entry.base()
                + " must come from a pip wheel, and there is none"
            : entry.base() + ".so not found on the system, by dlopen or in a pip wheel";
        found = new Found(Optional.empty(), FoundBy.NOT_FOUND, found.detail(),
            Optional.of(why + ": pip install " + entry.wheel(variant) + where + ", or set -D" + PROPERTY_PREFIX
                + entry.name() + ".path=<file>"));
      }
      libraries.add(provenance(entry, found, mapped));
      found.problem().ifPresent(problems::add);
    }
    Optional<NativeLibrary> cudart = libraries.get(0).file().isPresent() ? Optional.of(libraries.get(0))
        : Optional.empty();
    if (variant.isPresent() && cudart.isPresent()) {
      Optional<Integer> major = cudaMajor(cudart.get());
      if (major.isPresent() && !major.get().equals(variant.get())) {
        problems.add("the TE build is for CUDA " + variant.get() + " (" + variantSource + "), but the cudart in use is"
            + " CUDA " + major.get() + " (" + cudart.get().file().get() + ", " + cudart.get().foundDetail()
            + "): install " + entry("cudart").wheel(variant) + ", or the transformer_engine_cu" + major.get()
            + " wheel");
      }
    }
    for (NativeLibrary library : libraries) {
      Optional<Path> chosen = library.file();
      if (chosen.isPresent() && library.foundBy() != FoundBy.ALREADY_LOADED && !library.mapped().isEmpty()
          && library.mapped().stream().noneMatch(m -> WheelLibPaths.sameFile(m, chosen.get()))) {
        warnings.add(library.soname().orElse(library.name()) + " is already mapped from " + library.mapped().get(0)
            + "; te-runtime's search chose " + chosen.get() + ", but symbols bind to the mapped copy");
      }
    }
    warnings.addAll(walkWarnings());
    warnings.addAll(UnnamedFolders.warnings("LD_LIBRARY_PATH", Libc.getenv("LD_LIBRARY_PATH"), ":;", "libraries"));
    Optional<LoadPrediction> prediction = teLibrary.filter(Files::isRegularFile)
        .flatMap(te -> transformerEngine(libraries, te));
    return Reports.make().nativeWorld(libraries, site.folder(), site.source(), toolkit, variant, variantSource,
        warnings, problems, prediction);
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
    return LoadPredictor.predict(te, false, preloads, global, labels);
  }

  /** The CUDA major of a cudart: from its reported version, else its SONAME. */
  static Optional<Integer> cudaMajor(NativeLibrary cudart) {
    Optional<String> text = cudart.version().or(() -> cudart.soname().map(s -> s.replaceAll(".*\\.so\\.", "")));
    try {
      return text.map(t -> Integer.parseInt(t.split("\\.")[0]));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  static Entry entry(String name) {
    return ENTRIES.stream().filter(e -> e.name().equals(name)).findFirst().orElseThrow();
  }

  private static Optional<Found> mappedCopy(Entry entry, Map<String, List<Path>> mapped) {
    for (Map.Entry<String, List<Path>> e : mapped.entrySet()) {
      if (entry.versioned().matcher(e.getKey()).matches()) {
        return Optional.of(Found.of(firstLoaded(e.getKey(), e.getValue()), FoundBy.ALREADY_LOADED,
            "mapped in this process"));
      }
    }
    return Optional.empty();
  }

  /**
   * The copy the dynamic linker binds a DT_NEEDED of that SONAME to: the first loaded, which dlopen's RTLD_NOLOAD
   * lookup returns (the maps are in address order, not load order).
   */
  private static Path firstLoaded(String soname, List<Path> copies) {
    return Libc.loadedFile(soname).filter(f -> copies.stream().anyMatch(c -> WheelLibPaths.sameFile(c, f)))
        .orElse(copies.get(0));
  }

  private static List<Path> inLoadOrder(String soname, List<Path> copies) {
    if (copies.size() < 2) {
      return copies;
    }
    Path first = firstLoaded(soname, copies);
    List<Path> ordered = new ArrayList<>();
    copies.stream().filter(c -> WheelLibPaths.sameFile(c, first)).forEach(ordered::add);
    copies.stream().filter(c -> !WheelLibPaths.sameFile(c, first)).forEach(ordered::add);
    return ordered;
  }

  private static Optional<Found> overrideOrSkip(Entry entry, Config config) {
    String key = PROPERTY_PREFIX + entry.name();
    String envKey = "TE_NATIVE_" + entry.name().toUpperCase(Locale.ROOT);
    String skip = Config.property(key + ".skip");
    String skipSource = "system property " + key + ".skip";
    if (skip == null) {
      skip = env(envKey + "_SKIP");
      skipSource = "environment " + envKey + "_SKIP";
    }
    if (skip != null && !skip.strip().equalsIgnoreCase("false") && !skip.strip().equals("0")) {
      return Optional.of(new Found(Optional.empty(), FoundBy.SKIPPED, skipSource, Optional.empty()));
    }
    String path = Config.property(key + ".path");
    String source = "system property " + key + ".path";
    if (path == null) {
      path = env(envKey + "_PATH");
      source = "environment " + envKey + "_PATH";
    }
    if (path == null && entry.name().equals("nccl") && config.effectiveNcclLibrary() != null) {
      path = config.effectiveNcclLibrary().toString();
      source = config.ncclLibrary() != null ? "TeRuntime.Builder.ncclLibrary"
          : "system property " + Config.NCCL_LIBRARY_PROPERTY;
    }
    if (path == null) {
      return Optional.empty();
    }
    Path file = Path.of(path).toAbsolutePath().normalize();
    if (!Files.isRegularFile(file)) {
      return Optional.of(new Found(Optional.empty(), FoundBy.OVERRIDE, source + "=" + path, Optional.of(
          source + " names " + path + ", which is not a file; the search stops at a value someone set")));
    }
    return Optional.of(Found.of(file, FoundBy.OVERRIDE, source + "=" + path));
  }

  /** System roots, then dlopen by name, then pip wheels. */
  private static Found find(Entry entry, Optional<Path> site, boolean withPip) {
    Found system = systemOrDlopen(entry);
    if (system.file().isPresent() || !withPip) {
      return system;
    }
    Found pip = pipOnly(entry, site);
    return pip.file().isPresent() ? pip
        : new Found(Optional.empty(), FoundBy.NOT_FOUND, system.detail() + "; " + pip.detail(), Optional.empty());
  }

  /** TE's system roots for a library, in its order: {source, folder or null}. */
  private static List<String[]> systemRoots(Entry entry) {
    String upper = entry.name().toUpperCase(Locale.ROOT);
    List<String[]> roots = new ArrayList<>();
    roots.add(new String[] {"environment " + upper + "_HOME", env(upper + "_HOME")});
    roots.add(new String[] {"environment " + upper + "_PATH", env(upper + "_PATH")});
    roots.add(new String[] {"environment CUDA_HOME", env("CUDA_HOME")});
    roots.add(new String[] {"environment CUDA_PATH", env("CUDA_PATH")});
    String defaultRoot = System.getProperty(DEFAULT_CUDA_ROOT_PROPERTY, DEFAULT_CUDA_ROOT);
    roots.add(new String[] {"default " + (defaultRoot.isEmpty() ? "(none)" : defaultRoot),
        defaultRoot.isEmpty() ? null : defaultRoot});
    return roots;
  }

  private static Found systemOrDlopen(Entry entry) {
    String upper = entry.name().toUpperCase(Locale.ROOT);
    List<String[]> roots = systemRoots(entry);
    String defaultRoot = System.getProperty(DEFAULT_CUDA_ROOT_PROPERTY, DEFAULT_CUDA_ROOT);
    Pattern name = Pattern.compile(Pattern.quote(entry.base()) + "\\.so.*");
    for (String[] root : roots) {
      if (root[1] == null) {
        continue;
      }
      Optional<Path> best = index(Path.of(root[1])).stream()
          .filter(p -> name.matcher(p.getFileName().toString()).matches())
          .filter(p -> !p.toString().contains("stub"))
          .max(Comparator.comparing((Path p) -> p.getFileName().toString()));
      if (best.isPresent()) {
        return Found.of(best.get(), FoundBy.SYSTEM, root[0] + "=" + root[1]);
      }
    }
    ElfMachine machine = HostMachine.current();
    if (machine != null) {
      List<String> names = new ArrayList<>();
      names.add(entry.base() + ".so");
      for (String name2 : names) {
        // te-runtime loads what this finds (loadNativeLibraries), so an unnamed folder is not searched.
        Optional<Dependency> hit = LoaderSearch.byNameInNamedFolders(name2, machine, new ArrayList<>());
        if (hit.isPresent()) {
          return Found.of(hit.get().file().get(), FoundBy.DLOPEN, "dlopen(\"" + name2 + "\"): " + hit.get().foundBy());
        }
      }
    }
    return new Found(Optional.empty(), FoundBy.NOT_FOUND, "not on the system (" + upper + "_HOME, " + upper
        + "_PATH, CUDA_HOME, CUDA_PATH, " + (defaultRoot.isEmpty() ? "no default root" : defaultRoot)
        + ") nor by dlopen(\"" + entry.base() + ".so\")", Optional.empty());
  }

  /** TE's pip folders, in its order, plus the real folders its patterns miss; the highest version in the first. */
  private static Found pipOnly(Entry entry, Optional<Path> site) {
    if (site.isEmpty()) {
      return new Found(Optional.empty(), FoundBy.NOT_FOUND, "no site-packages to search", Optional.empty());
    }
    Path nvidia = site.get().resolve("nvidia");
    List<Path> folders = new ArrayList<>(List.of(nvidia.resolve("cu13").resolve(entry.pipPackage()).resolve("lib"),
        nvidia.resolve("cu13/lib"), nvidia.resolve(entry.pipPackage()).resolve("lib"),
        nvidia.resolve("cuda_" + entry.pipPackage()).resolve("lib")));
    for (String extra : entry.extraPipFolders()) {
      folders.add(site.get().resolve(extra));
    }
    Pattern pattern = entry.versioned();
    for (Path folder : folders) {
      if (!Files.isDirectory(folder)) {
        continue;
      }
      try (Stream<Path> files = Files.list(folder)) {
        Optional<Path> best = files.filter(p -> pattern.matcher(p.getFileName().toString()).matches())
            .max(Comparator.comparing(p -> versionKey(suffix(p, pattern))));
        if (best.isPresent()) {
          return Found.of(best.get(), FoundBy.PIP_WHEEL, site.get().relativize(folder).toString());
        }
      } catch (IOException e) {
        // unreadable folder: the next one
      }
    }
    return new Found(Optional.empty(), FoundBy.NOT_FOUND, "no " + entry.base() + ".so.<N> in " + nvidia + "'s "
        + entry.pipPackage() + " folders", Optional.empty());
  }

  private static NativeLibrary provenance(Entry entry, Found found, Map<String, List<Path>> mapped) {
    Optional<String> soname = found.file().flatMap(ProcMaps::soname);
    List<Path> copies = soname.map(s -> inLoadOrder(s, mapped.getOrDefault(s, List.of()))).orElse(List.of());
    List<Path> companions = found.file().filter(f -> entry.name().equals("cudnn"))
        .map(Discovery::cudnnParts).orElse(List.of());
    Optional<String> version = Optional.empty();
    String versionSource = "none";
    if (found.file().isPresent() && copies.stream().anyMatch(c -> WheelLibPaths.sameFile(c, found.file().get()))) {
      Libc.Opened opened = Libc.dlopen(found.file().get().toString(), Libc.RTLD_LAZY | Libc.RTLD_NOLOAD);
      if (opened.ok()) {
        try {
          version = LibraryVersions.read(entry.name(), opened.handle());
          if (version.isPresent()) {
            versionSource = LibraryVersions.functionOf(entry.name()).orElse("function");
          }
        } finally {
          Libc.dlclose(opened.handle());
        }
      }
    }
    if (version.isEmpty() && found.file().isPresent()) {
      Pattern pattern = entry.versioned();
      Path real = found.file().get();
      try {
        real = real.toRealPath();
      } catch (IOException e) {
        // a dangling link: its own name
      }
      String fromFile = suffix(real, pattern);
      String fromSoname = soname.map(s -> {
        Matcher m = pattern.matcher(s);
        return m.matches() ? m.group(1) : "";
      }).orElse("");
      if (fromFile.length() > fromSoname.length()) {
        version = Optional.of(fromFile);
        versionSource = "file name";
      } else if (!fromSoname.isEmpty()) {
        version = Optional.of(fromSoname);
        versionSource = "SONAME";
      }
    }
    return Reports.make().nativeLibrary(entry.name(), found.file(), companions, soname, version, versionSource,
        found.foundBy(), found.detail(), copies, found.problem());
  }

  /** cuDNN 9's sub-libraries beside libcudnn.so.9, in dependency order; any others after, by name. */
  static List<Path> cudnnParts(Path main) {
    Path folder = main.toAbsolutePath().getParent();
    Pattern part = Pattern.compile("libcudnn_([a-z_]+)\\.so\\.(\\d+)");
    List<Path> found = new ArrayList<>();
    try (Stream<Path> files = Files.list(folder)) {
      files.filter(p -> part.matcher(p.getFileName().toString()).matches()).forEach(found::add);
    } catch (IOException e) {
      return List.of();
    }
    found.sort(Comparator.comparing((Path p) -> {
      Matcher m = part.matcher(p.getFileName().toString());
      m.matches();
      int index = CUDNN_PARTS.indexOf(m.group(1));
      return index < 0 ? CUDNN_PARTS.size() : index;
    }).thenComparing(p -> p.getFileName().toString()));
    return found;
  }

  private static List<Path> index(Path root) {
    return indexOf(root).files();
  }

  private static RootIndex indexOf(Path root) {
    Path key = root.toAbsolutePath().normalize();
    return ROOT_INDEX.computeIfAbsent(key, Discovery::walk);
  }

  /**
   * The lib*.so* files under {@code root}, links followed. A folder reached again (a link loop, or a second link
   * to one already walked) is walked once, by file key; a folder that cannot be read is skipped. Both are
   * recorded and the walk goes on, so one bad folder never hides the libraries beside it, and nothing loops.
   */
  private static RootIndex walk(Path root) {
    if (!Files.isDirectory(root)) {
      return new RootIndex(List.of(), List.of());
    }
    List<Path> files = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    Set<Object> walked = new HashSet<>();
    try {
      Files.walkFileTree(root, EnumSet.of(FileVisitOption.FOLLOW_LINKS), 32, new SimpleFileVisitor<Path>() {
        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
          Object key = attrs.fileKey();
          if (key != null && !walked.add(key)) {
            return FileVisitResult.SKIP_SUBTREE; // another path to a folder already walked
          }
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
          String n = file.getFileName() == null ? "" : file.getFileName().toString();
          if (n.startsWith("lib") && n.contains(".so") && attrs.isRegularFile()) {
            files.add(file);
          }
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) {
          skipped.add(e instanceof FileSystemLoopException
              ? file + " (a link back to the folder " + target(file) + " that contains it: a loop, not walked)"
              : file + " (unreadable: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
                  + ")");
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path dir, IOException e) {
          if (e != null) {
            skipped.add(dir + " (listing failed: " + e.getMessage() + ")");
          }
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException | RuntimeException e) {
      skipped.add(root + " (walk stopped: " + e + ")");
    }
    return new RootIndex(List.copyOf(files), List.copyOf(skipped));
  }

  private static String target(Path link) {
    try {
      return link.toRealPath().toString();
    } catch (IOException e) {
      return "?";
    }
  }

  /** The walk's warnings for the system roots already walked: folders skipped, and why. */
  private static List<String> walkWarnings() {
    List<String> warnings = new ArrayList<>();
    for (Entry entry : ENTRIES) {
      for (String[] root : systemRoots(entry)) {
        if (root[1] == null) {
          continue;
        }
        RootIndex index = ROOT_INDEX.get(Path.of(root[1]).toAbsolutePath().normalize());
        if (index != null) {
          for (String skipped : index.skipped()) {
            String line = "while searching " + root[0] + "=" + root[1] + " for libraries, skipped " + skipped;
            if (!warnings.contains(line)) {
              warnings.add(line);
            }
          }
        }
      }
    }
    return warnings;
  }

  private static List<Path> distinctFiles(List<Path> files) {
    List<Path> distinct = new ArrayList<>();
    for (Path file : files) {
      if (distinct.stream().noneMatch(d -> WheelLibPaths.sameFile(d, file))) {
        distinct.add(file);
      }
    }
    return distinct;
  }

  private static String suffix(Path file, Pattern pattern) {
    Matcher m = pattern.matcher(file.getFileName().toString());
    return m.matches() ? m.group(1) : "";
  }

  /** A version string as a sortable key: each number zero-padded. */
  private static String versionKey(String version) {
    StringBuilder key = new StringBuilder();
    for (String part : version.split("\\.")) {
      key.append(String.format("%010d", part.isEmpty() || !part.chars().allMatch(Character::isDigit) ? 0
          : Long.parseLong(part.length() > 9 ? part.substring(0, 9) : part)));
    }
    return key.toString();
  }

  static String env(String name) {
    String value = Libc.getenv(name);
    return value == null || value.isEmpty() ? null : value;
  }

}
