package dev.tewheel.loader.te;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.loader.ElfFiles;
import dev.tewheel.loader.Host;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * TE's own loading sequence ({@code transformer_engine/common/__init__.py}) as data over a {@link Host} and a
 * site-packages: for each library of {@link TeLibrary#ALL}, in load order, which file each step finds and why.
 * The steps, first hit wins: a copy already mapped (the dynamic linker binds DT_NEEDED entries to it); an explicit
 * override ({@code te.native.<name>.path} / {@code .skip}, else {@code TE_NATIVE_<NAME>_PATH} / {@code _SKIP}, te-runtime's
 * addition); the system ({@code $<NAME>_HOME}, {@code $<NAME>_PATH}, {@code $CUDA_HOME}, {@code $CUDA_PATH},
 * {@code /usr/local/cuda}: the whole tree, stubs skipped, the highest file name first); a plain
 * {@code dlopen("lib<name>.so")}; then NVIDIA's pip wheels under site-packages ({@code nvidia/cu13/<pkg>/lib},
 * {@code nvidia/cu13/lib}, {@code nvidia/<pkg>/lib}, {@code nvidia/cuda_<pkg>/lib}, the highest version in the
 * first folder that has one). Without a CUDA toolkit (neither NVRTC nor cuRAND on the system) cudart, cuBLAS(Lt)
 * and cuDNN come from pip wheels only. Nothing is loaded; files are only listed and read.
 */
public final class TeLoadSequence {
  /** te.native.&lt;name&gt;.path / .skip (TE_NATIVE_&lt;NAME&gt;_PATH / _SKIP in the environment). */
  public static final String PROPERTY_PREFIX = "te.native.";
  /** The last system root of TE's search. */
  public static final Path DEFAULT_CUDA_ROOT = Path.of("/usr/local/cuda");

  private static final Pattern DIST_INFO = Pattern.compile("transformer_engine_cu(\\d+)-.*\\.dist-info");
  private static final Pattern CUDART_NEEDED = Pattern.compile("libcudart\\.so\\.(\\d+)");

  private TeLoadSequence() {}

  /** Where {@code dlopen(name)} by name would find a file on the host (the loader's search); empty when nowhere. */
  @FunctionalInterface
  public interface DlopenSearch {
    Optional<Hit> find(String name);

    /** A file and how the search found it ({@code LD_LIBRARY_PATH}, {@code ld.so.cache}, ...). */
    record Hit(Path file, String how) {}

    /** A host on which dlopen by name finds nothing (another machine, or the step left out). */
    DlopenSearch NONE = name -> Optional.empty();
  }

  /** A library te-runtime is configured with (the NCCL setting), and where that setting came from. */
  public record Configured(Path file, String source) {}

  /**
   * The sequence's input.
   *
   * @param host the environment read ({@link #environmentNames()}) and the objects already mapped
   * @param site the site-packages of the pip-wheel step
   * @param properties te-runtime's settings ({@code te.native.<name>.path}, {@code .skip}); blank values left out
   * @param defaultCudaRoot the last system root ({@link #DEFAULT_CUDA_ROOT}); empty: none
   * @param nccl the configured NCCL, an override of the NCCL step after the properties and environment
   * @param teLibrary TE's own library, whose DT_NEEDED of libcudart names TE's CUDA major
   * @param dlopen the by-name step's search
   */
  public record Request(Host host, TeSitePackages site, Map<String, String> properties, Optional<Path> defaultCudaRoot,
      Optional<Configured> nccl, Optional<Path> teLibrary, DlopenSearch dlopen) {
    public Request {
      properties = Map.copyOf(properties);
    }
  }

  /** One step tried for a library: which kind, where it looked, and the file it found there (empty: none). */
  public record Step(TeFoundBy kind, String where, Optional<Path> file) {}

  /**
   * Where the sequence found one library.
   *
   * @param library the library
   * @param file the file chosen; empty when none was (skipped, not found, a bad override)
   * @param foundBy the step that decided
   * @param detail where that step looked ({@code environment CUDA_HOME=/opt/cuda}, ...)
   * @param problem what is wrong and the fix, when the library is missing or an override names no file
   * @param companions cuDNN's sub-libraries beside it, in load order (empty for the others)
   * @param soname the chosen file's DT_SONAME
   * @param mapped the mapped copies of that SONAME, the one DT_NEEDED binds to first
   * @param version the version its file name or SONAME tells (the longer)
   * @param versionSource {@code file name}, {@code SONAME} or {@code none}
   * @param steps every step tried, in order
   */
  public record Found(TeLibrary library, Optional<Path> file, TeFoundBy foundBy, String detail,
      Optional<String> problem, List<Path> companions, Optional<String> soname, List<Path> mapped,
      Optional<String> version, String versionSource, List<Step> steps) {
    public Found {
      companions = List.copyOf(companions);
      mapped = List.copyOf(mapped);
      steps = List.copyOf(steps);
    }
  }

  /**
   * The whole sequence's answer.
   *
   * @param site the site-packages searched
   * @param toolkit whether a CUDA toolkit is on the system (NVRTC or cuRAND found by the system or dlopen step)
   * @param variant TE's CUDA major (its wheel's dist-info, else its library's DT_NEEDED of libcudart)
   * @param variantSource what told the variant; {@code unknown} when nothing did
   * @param libraries one per {@link TeLibrary#ALL}, in load order
   * @param warnings what binds other than the search says (two mapped copies, a mapped copy beside the chosen one),
   *     and the folders a system root's walk skipped
   * @param problems each library's problem, in order
   */
  public record Result(TeSitePackages site, boolean toolkit, Optional<Integer> variant, String variantSource,
      List<Found> libraries, List<String> warnings, List<String> problems) {
    public Result {
      libraries = List.copyOf(libraries);
      warnings = List.copyOf(warnings);
      problems = List.copyOf(problems);
    }

    /** The library of TE's short name. */
    public Found library(String name) {
      return libraries.stream().filter(l -> l.library().name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * The problem when TE is built for another CUDA major than the cudart in use.
     *
     * @param cudartVersion cudart's version (a live {@code cudaRuntimeGetVersion}, else {@link Found#version});
     *     its SONAME's number when empty
     */
    public Optional<String> cudaMismatch(Optional<String> cudartVersion) {
      Found cudart = library("cudart");
      if (variant.isEmpty() || cudart.file().isEmpty()) {
        return Optional.empty();
      }
      Optional<Integer> major;
      try {
        major = cudartVersion.or(() -> cudart.soname().map(s -> s.replaceAll(".*\\.so\\.", "")))
            .map(t -> Integer.parseInt(t.split("\\.")[0]));
      } catch (NumberFormatException e) {
        major = Optional.empty();
      }
      if (major.isEmpty() || major.get().equals(variant.get())) {
        return Optional.empty();
      }
      return Optional.of("the TE build is for CUDA " + variant.get() + " (" + variantSource + "), but the cudart in"
          + " use is CUDA " + major.get() + " (" + cudart.file().get() + ", " + cudart.detail() + "): install "
          + cudart.library().wheel(variant) + ", or the transformer_engine_cu" + major.get() + " wheel");
    }
  }

  /** The environment variables the sequence reads, so a live host can be asked for exactly these. */
  public static List<String> environmentNames() {
    List<String> names = new ArrayList<>(List.of("VIRTUAL_ENV", "CUDA_HOME", "CUDA_PATH"));
    for (TeLibrary library : TeLibrary.ALL) {
      String upper = library.name().toUpperCase(Locale.ROOT);
      names.addAll(List.of(upper + "_HOME", upper + "_PATH", "TE_NATIVE_" + upper + "_PATH",
          "TE_NATIVE_" + upper + "_SKIP"));
    }
    return names;
  }

  /** The whole sequence: every library of {@link TeLibrary#ALL}, in load order. */
  public static Result run(Request request) {
    Host host = request.host();
    Map<String, List<Path>> mapped = mappedBySoname(host);
    List<String> warnings = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, List<Path>> e : mapped.entrySet()) {
      List<Path> distinct = distinctFiles(e.getValue());
      if (distinct.size() > 1) {
        warnings.add("two different files with SONAME " + e.getKey() + " are mapped in this process: "
            + String.join(", ", distinct.stream().map(Path::toString).toList())
            + "; DT_NEEDED entries bind to the first loaded (" + distinct.get(0) + ")");
      }
    }
    boolean toolkit = systemOrDlopen(TeLibrary.named("nvrtc"), request, new ArrayList<>()).file().isPresent()
        || systemOrDlopen(TeLibrary.named("curand"), request, new ArrayList<>()).file().isPresent();
    Optional<Integer> variant = Optional.empty();
    String variantSource = "unknown";
    if (request.site().installedWheel()) {
      try (Stream<Path> names = Files.list(request.site().folder().get())) {
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
    Optional<Path> te = request.teLibrary();
    if (variant.isEmpty() && te.isPresent() && Files.isRegularFile(te.get())) {
      try {
        for (String needed : ElfFiles.readWithoutSymbols(te.get()).needed()) {
          Matcher m = CUDART_NEEDED.matcher(needed);
          if (m.matches()) {
            variant = Optional.of(Integer.parseInt(m.group(1)));
            variantSource = te.get().getFileName() + " NEEDS " + needed;
          }
        }
      } catch (IOException | RuntimeException e) {
        // unreadable: unknown
      }
    }
    List<Found> libraries = new ArrayList<>();
    for (TeLibrary library : TeLibrary.ALL) {
      List<Step> steps = new ArrayList<>();
      Search found = mappedCopy(library, mapped, steps)
          .or(() -> overrideOrSkip(library, request, steps))
          .orElseGet(() -> toolkit || !library.pipWithoutToolkit() ? find(library, request, steps)
              : pipOnly(library, request.site().folder(), steps));
      if (found.file().isEmpty() && found.problem().isEmpty() && found.foundBy() != TeFoundBy.SKIPPED) {
        String where = request.site().folder().map(f -> " into " + f).orElse(" (te-runtime knows no site-packages:"
            + " set -Dte.sitePackages or VIRTUAL_ENV)");
        String why = !toolkit && library.pipWithoutToolkit()
            ? "without a CUDA toolkit (neither NVRTC nor cuRAND on the system), " + library.base()
                + " must come from a pip wheel, and there is none"
            : library.base() + ".so not found on the system, by dlopen or in a pip wheel";
        found = new Search(Optional.empty(), TeFoundBy.NOT_FOUND, found.detail(),
            Optional.of(why + ": pip install " + library.wheel(variant) + where + ", or set -D" + PROPERTY_PREFIX
                + library.name() + ".path=<file>"));
      }
      Found result = provenance(library, found, mapped, steps);
      libraries.add(result);
      found.problem().ifPresent(problems::add);
    }
    for (Found library : libraries) {
      Optional<Path> chosen = library.file();
      if (chosen.isPresent() && library.foundBy() != TeFoundBy.ALREADY_LOADED && !library.mapped().isEmpty()
          && library.mapped().stream().noneMatch(m -> WheelLibPaths.sameFile(m, chosen.get()))) {
        warnings.add(library.soname().orElse(library.library().name()) + " is already mapped from "
            + library.mapped().get(0) + "; te-runtime's search chose " + chosen.get()
            + ", but symbols bind to the mapped copy");
      }
    }
    warnings.addAll(walkWarnings(request));
    return new Result(request.site(), toolkit, variant, variantSource, libraries, warnings, problems);
  }

  /**
   * The NCCL TE's search finds when nothing is configured: the system, dlopen by name, then the pip wheels (no
   * mapped copy, no override: the NCCL gate asks what a fresh search would load).
   */
  public static Found nccl(Request request) {
    TeLibrary library = TeLibrary.named("nccl");
    List<Step> steps = new ArrayList<>();
    return provenance(library, find(library, request, steps), Map.of(), steps);
  }

  /**
   * One library's search as TE's Python runs it per library ({@code _load_cuda_library}): the system roots, dlopen
   * by name, then the pip folders; no mapped copy and no override (a fresh Python process has neither).
   */
  public static Found search(TeLibrary library, Request request) {
    List<Step> steps = new ArrayList<>();
    return provenance(library, find(library, request, steps), Map.of(), steps);
  }

  /** The pip-wheel step alone: TE's Python loads cuBLAS, cudart and cuDNN so when no CUDA toolkit is found. */
  public static Found pipWheel(TeLibrary library, Request request) {
    List<Step> steps = new ArrayList<>();
    return provenance(library, pipOnly(library, request.site().folder(), steps), Map.of(), steps);
  }

  /** cuDNN 9's sub-libraries beside libcudnn.so.9, in dependency order; any others after, by name. */
  public static List<Path> cudnnParts(Path main) {
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
      int index = TeLibrary.CUDNN_PARTS.indexOf(m.group(1));
      return index < 0 ? TeLibrary.CUDNN_PARTS.size() : index;
    }).thenComparing(p -> p.getFileName().toString()));
    return found;
  }

  /** A variable of the host; empty when unset or empty (TE treats both alike). */
  static Optional<String> env(Host host, String name) {
    Optional<String> value = host.getenv(name);
    return value.isPresent() && value.get().isEmpty() ? Optional.empty() : value;
  }

  /** A step's answer before provenance is added. */
  private record Search(Optional<Path> file, TeFoundBy foundBy, String detail, Optional<String> problem) {
    static Search of(Path file, TeFoundBy foundBy, String detail) {
      return new Search(Optional.of(file), foundBy, detail, Optional.empty());
    }
  }

  /** The host's mapped objects named like TE's libraries, by SONAME, each list in load order. */
  private static Map<String, List<Path>> mappedBySoname(Host host) {
    Map<String, List<Path>> result = new LinkedHashMap<>();
    for (Host.Mapped m : host.mapped().listed()) {
      String name = m.file().getFileName().toString();
      if (TeLibrary.ALL.stream().anyMatch(l -> name.startsWith(l.base()))) {
        result.computeIfAbsent(m.soname(), k -> new ArrayList<>()).add(m.file());
      }
    }
    return result;
  }

  private static Optional<Search> mappedCopy(TeLibrary library, Map<String, List<Path>> mapped, List<Step> steps) {
    for (Map.Entry<String, List<Path>> e : mapped.entrySet()) {
      if (library.versioned().matcher(e.getKey()).matches()) {
        Path first = e.getValue().get(0);
        steps.add(new Step(TeFoundBy.ALREADY_LOADED, "mapped as " + e.getKey(), Optional.of(first)));
        return Optional.of(Search.of(first, TeFoundBy.ALREADY_LOADED, "mapped in this process"));
      }
    }
    steps.add(new Step(TeFoundBy.ALREADY_LOADED, "mapped objects", Optional.empty()));
    return Optional.empty();
  }

  private static Optional<Search> overrideOrSkip(TeLibrary library, Request request, List<Step> steps) {
    String key = PROPERTY_PREFIX + library.name();
    String envKey = "TE_NATIVE_" + library.name().toUpperCase(Locale.ROOT);
    Optional<String> skip = property(request, key + ".skip");
    String skipSource = "system property " + key + ".skip";
    if (skip.isEmpty()) {
      skip = env(request.host(), envKey + "_SKIP");
      skipSource = "environment " + envKey + "_SKIP";
    }
    if (skip.isPresent() && !skip.get().strip().equalsIgnoreCase("false") && !skip.get().strip().equals("0")) {
      steps.add(new Step(TeFoundBy.SKIPPED, skipSource + "=" + skip.get(), Optional.empty()));
      return Optional.of(new Search(Optional.empty(), TeFoundBy.SKIPPED, skipSource, Optional.empty()));
    }
    Optional<String> path = property(request, key + ".path");
    String source = "system property " + key + ".path";
    if (path.isEmpty()) {
      path = env(request.host(), envKey + "_PATH");
      source = "environment " + envKey + "_PATH";
    }
    if (path.isEmpty() && library.name().equals("nccl") && request.nccl().isPresent()) {
      path = Optional.of(request.nccl().get().file().toString());
      source = request.nccl().get().source();
    }
    if (path.isEmpty()) {
      steps.add(new Step(TeFoundBy.OVERRIDE, key + ".path, " + envKey + "_PATH", Optional.empty()));
      return Optional.empty();
    }
    Path file = Path.of(path.get()).toAbsolutePath().normalize();
    if (!Files.isRegularFile(file)) {
      steps.add(new Step(TeFoundBy.OVERRIDE, source + "=" + path.get(), Optional.empty()));
      return Optional.of(new Search(Optional.empty(), TeFoundBy.OVERRIDE, source + "=" + path.get(), Optional.of(
          source + " names " + path.get() + ", which is not a file; the search stops at a value someone set")));
    }
    steps.add(new Step(TeFoundBy.OVERRIDE, source + "=" + path.get(), Optional.of(file)));
    return Optional.of(Search.of(file, TeFoundBy.OVERRIDE, source + "=" + path.get()));
  }

  private static Optional<String> property(Request request, String key) {
    return Optional.ofNullable(request.properties().get(key)).filter(v -> !v.isBlank());
  }

  /** System roots, then dlopen by name, then pip wheels. */
  private static Search find(TeLibrary library, Request request, List<Step> steps) {
    Search system = systemOrDlopen(library, request, steps);
    if (system.file().isPresent()) {
      return system;
    }
    Search pip = pipOnly(library, request.site().folder(), steps);
    return pip.file().isPresent() ? pip
        : new Search(Optional.empty(), TeFoundBy.NOT_FOUND, system.detail() + "; " + pip.detail(), Optional.empty());
  }

  /** A system root of TE's order: where its value came from, and the folder (empty: unset). */
  private record Root(String source, Optional<String> folder) {}

  private static List<Root> systemRoots(TeLibrary library, Request request) {
    String upper = library.name().toUpperCase(Locale.ROOT);
    Host host = request.host();
    return List.of(new Root("environment " + upper + "_HOME", env(host, upper + "_HOME")),
        new Root("environment " + upper + "_PATH", env(host, upper + "_PATH")),
        new Root("environment CUDA_HOME", env(host, "CUDA_HOME")),
        new Root("environment CUDA_PATH", env(host, "CUDA_PATH")),
        new Root("default " + request.defaultCudaRoot().map(Path::toString).orElse("(none)"),
            request.defaultCudaRoot().map(Path::toString)));
  }

  private static Search systemOrDlopen(TeLibrary library, Request request, List<Step> steps) {
    String upper = library.name().toUpperCase(Locale.ROOT);
    Pattern name = Pattern.compile(Pattern.quote(library.base()) + "\\.so.*");
    for (Root root : systemRoots(library, request)) {
      if (root.folder().isEmpty()) {
        continue;
      }
      Optional<Path> best = SystemRoots.of(Path.of(root.folder().get())).files().stream()
          .filter(p -> name.matcher(p.getFileName().toString()).matches())
          .filter(p -> !p.toString().contains("stub"))
          .max(Comparator.comparing((Path p) -> p.getFileName().toString()));
      steps.add(new Step(TeFoundBy.SYSTEM, root.source() + "=" + root.folder().get(), best));
      if (best.isPresent()) {
        return Search.of(best.get(), TeFoundBy.SYSTEM, root.source() + "=" + root.folder().get());
      }
    }
    String soName = library.base() + ".so";
    Optional<DlopenSearch.Hit> hit = request.dlopen().find(soName);
    steps.add(new Step(TeFoundBy.DLOPEN, "dlopen(\"" + soName + "\")", hit.map(DlopenSearch.Hit::file)));
    if (hit.isPresent()) {
      return Search.of(hit.get().file(), TeFoundBy.DLOPEN, "dlopen(\"" + soName + "\"): " + hit.get().how());
    }
    return new Search(Optional.empty(), TeFoundBy.NOT_FOUND, "not on the system (" + upper + "_HOME, " + upper
        + "_PATH, CUDA_HOME, CUDA_PATH, " + request.defaultCudaRoot().map(Path::toString).orElse("no default root")
        + ") nor by dlopen(\"" + soName + "\")", Optional.empty());
  }

  /** TE's pip folders, in its order, plus the real folders its patterns miss; the highest version in the first. */
  private static Search pipOnly(TeLibrary library, Optional<Path> site, List<Step> steps) {
    if (site.isEmpty()) {
      steps.add(new Step(TeFoundBy.PIP_WHEEL, "no site-packages", Optional.empty()));
      return new Search(Optional.empty(), TeFoundBy.NOT_FOUND, "no site-packages to search", Optional.empty());
    }
    Path nvidia = site.get().resolve("nvidia");
    List<Path> folders = new ArrayList<>(List.of(nvidia.resolve("cu13").resolve(library.pipPackage()).resolve("lib"),
        nvidia.resolve("cu13/lib"), nvidia.resolve(library.pipPackage()).resolve("lib"),
        nvidia.resolve("cuda_" + library.pipPackage()).resolve("lib")));
    for (String extra : library.extraPipFolders()) {
      folders.add(site.get().resolve(extra));
    }
    Pattern pattern = library.versioned();
    for (Path folder : folders) {
      if (!Files.isDirectory(folder)) {
        continue;
      }
      try (Stream<Path> files = Files.list(folder)) {
        Optional<Path> best = files.filter(p -> pattern.matcher(p.getFileName().toString()).matches())
            .max(Comparator.comparing(p -> Versions.key(suffix(p, pattern))));
        steps.add(new Step(TeFoundBy.PIP_WHEEL, site.get().relativize(folder).toString(), best));
        if (best.isPresent()) {
          return Search.of(best.get(), TeFoundBy.PIP_WHEEL, site.get().relativize(folder).toString());
        }
      } catch (IOException e) {
        // unreadable folder: the next one
      }
    }
    return new Search(Optional.empty(), TeFoundBy.NOT_FOUND, "no " + library.base() + ".so.<N> in " + nvidia + "'s "
        + library.pipPackage() + " folders", Optional.empty());
  }

  private static Found provenance(TeLibrary library, Search found, Map<String, List<Path>> mapped,
      List<Step> steps) {
    Optional<String> soname = found.file().flatMap(ElfFiles::soname);
    List<Path> copies = soname.map(s -> mapped.getOrDefault(s, List.of())).orElse(List.of());
    List<Path> companions = found.file().filter(f -> library.name().equals("cudnn"))
        .map(TeLoadSequence::cudnnParts).orElse(List.of());
    Optional<String> version = Optional.empty();
    String versionSource = "none";
    if (found.file().isPresent()) {
      Pattern pattern = library.versioned();
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
    return new Found(library, found.file(), found.foundBy(), found.detail(), found.problem(), companions, soname,
        copies, version, versionSource, steps);
  }

  /** The walk's warnings for the system roots of this request already walked: folders skipped, and why. */
  private static List<String> walkWarnings(Request request) {
    List<String> warnings = new ArrayList<>();
    for (TeLibrary library : TeLibrary.ALL) {
      for (Root root : systemRoots(library, request)) {
        if (root.folder().isEmpty()) {
          continue;
        }
        for (String skipped : SystemRoots.walked(Path.of(root.folder().get())).map(SystemRoots.Index::skipped)
            .orElse(List.of())) {
          String line = "while searching " + root.source() + "=" + root.folder().get() + " for libraries, skipped "
              + skipped;
          if (!warnings.contains(line)) {
            warnings.add(line);
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
}
