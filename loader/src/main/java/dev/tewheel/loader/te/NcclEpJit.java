package dev.tewheel.loader.te;

import dev.tewheel.loader.Environment;
import dev.tewheel.loader.UnnamedFolders;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NCCL EP's JIT lookup (nccl-extensions {@code nccl_ep/device/jit}: {@code resolve_nvcc}, {@code
 * configured_source_dir}, {@code configured_build_include_dir}, {@code configured_cuda_include_dir}, {@code
 * JitCache::root_dir}) as a function of variables and files, with nothing run: where nvcc, the kernel headers, NCCL's
 * and CUDA's headers are looked up and in which order, which PATH entries name no folder ({@link UnnamedFolders}),
 * and the cache folders te-runtime may pick, in order. An empty value counts as unset, as in the JIT, except where
 * said. te-runtime's JitCheck applies it to its live process (reads the variables, makes and checks the cache
 * folder, sets variables); doctor's NcclCheck asks it for nvcc and the kernel headers.
 */
public final class NcclEpJit {
  public static final String CACHE_ENV = "NCCL_EP_JIT_CACHE_DIR";
  public static final String BUILD_INCLUDE_ENV = "NCCL_EP_JIT_BUILD_INCLUDE_DIR";
  static final String SOURCE_DIR_ENV = "NCCL_EP_JIT_SOURCE_DIR";
  static final String CUDA_INCLUDE_ENV = "NCCL_EP_JIT_CUDA_INCLUDE_DIR";
  /** The JIT's own default cache, which every user of the machine shares. */
  public static final Path SHARED_CACHE = Path.of("/tmp/nccl_ep/jit");
  /** The variables {@link #lookup} reads, so that a live process or doctor hands over exactly these. */
  public static final List<String> VARIABLES = List.of("NCCL_EP_JIT_NVCC", "NVCC", "CUDA_HOME", "CUDA_PATH", "PATH",
      SOURCE_DIR_ENV, NcclEpProvider.HOME, BUILD_INCLUDE_ENV, "NCCL_HOME", CUDA_INCLUDE_ENV);
  /** The variables {@link #cacheCandidates} reads. */
  public static final List<String> CACHE_VARIABLES = List.of("XDG_CACHE_HOME", "HOME");
  private static final Map<Path, Optional<String>> NVCC_VERSIONS = new ConcurrentHashMap<>();
  private static final Pattern DIST_INFO = Pattern.compile("nvidia_cuda_nvcc(?:_cu\\d+)?-(\\d[^-]*)\\.dist-info");

  private NcclEpJit() {}

  /** A folder the JIT takes, and who chose it: a variable, {@code config.h}, a default. */
  public record Found(Optional<Path> folder, String source) {}

  /**
   * The nvcc the JIT runs.
   *
   * @param source which variable decided ({@code NAME=value}, or {@code PATH}), then each PATH entry skipped
   * @param unnamed each unnamed PATH entry that holds an nvcc before any named one does: the JIT, which searches PATH
   *     as a shell does, would run the first, from whatever folder the process runs in
   */
  public record Nvcc(Optional<Path> file, String source, List<String> unnamed) {
    public Nvcc {
      unnamed = List.copyOf(unnamed);
    }
  }

  /**
   * What the JIT finds.
   *
   * @param headers whether the kernel headers' folder has its {@code device/}
   * @param pipInclude {@link #pipInclude}
   * @param ncclHeaderVersion NCCL_MAJOR.NCCL_MINOR.NCCL_PATCH of the {@code nccl.h} taken
   * @param cccl whether CUDA's headers hold {@code cccl/}
   */
  public record Lookup(Nvcc nvcc, Optional<String> nvccVersion, Found sourceDir, boolean headers, Found ncclInclude,
      Optional<Path> pipInclude, Optional<String> ncclHeaderVersion, Found cudaInclude, boolean cccl) {

    /**
     * What keeps the JIT from building, each with its fix.
     *
     * @param loadedNccl the NCCL version loaded, whose device API the headers must declare
     * @param loadedFrom its file, for the message
     */
    public List<String> missing(Optional<String> loadedNccl, String loadedFrom) {
      List<String> missing = new ArrayList<>(nvcc.unnamed());
      if (nvcc.file().isEmpty()) {
        missing.add("nvcc: none found (" + nvcc.source() + "; the JIT tries NCCL_EP_JIT_NVCC, NVCC,"
            + " $CUDA_HOME/bin/nvcc or $CUDA_PATH/bin/nvcc, then nvcc on PATH). Install the CUDA toolkit's nvcc or"
            + " set NCCL_EP_JIT_NVCC");
      }
      if (!headers) {
        missing.add("NCCL EP's kernel headers: " + sourceDir.folder().map(p -> p + "/device is not a folder")
            .orElse("no folder known") + " (" + sourceDir.source() + "). Set NCCL_EP_HOME to the folder whose"
            + " include/nccl_ep/ holds them (wheel_lib/nccl_ep in TE's layout)");
      }
      Optional<Path> nccl = ncclInclude.folder();
      if (nccl.isEmpty() || !Files.isRegularFile(nccl.get().resolve("nccl.h"))) {
        missing.add("NCCL's headers: " + nccl.map(p -> "no nccl.h in " + p).orElse("no folder known") + " ("
            + ncclInclude.source() + "). Set NCCL_HOME or " + BUILD_INCLUDE_ENV + ", or install"
            + " nvidia-nccl-cu12/-cu13 (its nvidia/nccl/include is used)");
      } else if (!Files.isRegularFile(nccl.get().resolve("nccl_device.h"))) {
        missing.add("NCCL's device headers: no nccl_device.h in " + nccl.get() + " (NCCL >= 2.28 has it)");
      }
      if (ncclHeaderVersion.isPresent() && loadedNccl.isPresent() && !ncclHeaderVersion.equals(loadedNccl)) {
        missing.add("nccl.h in " + nccl.get() + " declares " + ncclHeaderVersion.get() + " but the NCCL loaded is "
            + loadedNccl.get() + " (" + loadedFrom + "): kernels would be built against another NCCL's device"
            + " API. Point NCCL_HOME at the loaded NCCL's installation");
      }
      Optional<Path> cuda = cudaInclude.folder();
      if (cuda.isEmpty() || !Files.isRegularFile(cuda.get().resolve("cuda_runtime.h"))) {
        missing.add("CUDA's headers: " + cuda.map(p -> "no cuda_runtime.h in " + p).orElse("no folder known")
            + " (" + cudaInclude.source() + "). Set CUDA_HOME or " + CUDA_INCLUDE_ENV);
      } else if (!cccl && !Files.isDirectory(cuda.get().resolve("cuda/std"))) {
        missing.add("CUDA's C++ core libraries: neither " + cuda.get().resolve("cccl") + " nor "
            + cuda.get().resolve("cuda/std") + " exists");
      }
      return missing;
    }
  }

  /**
   * The JIT's lookup under {@code variables}.
   *
   * @param home NCCL_EP_HOME while the variable is unset: the folder TE's provider, or te-runtime, sets it to
   * @param homeSource who sets it so, for {@link Found#source}
   * @param configH the {@code config.h} whose build-machine paths the JIT falls back to
   * @param sitePackages where pip's {@code nvidia/nccl/include} would be
   */
  public static Lookup lookup(Map<String, String> variables, Optional<Path> home, String homeSource,
      Optional<Path> configH, Optional<Path> sitePackages) {
    Map<String, String> compiledIn = configH.map(NcclEpJit::defines).orElse(Map.of());
    Nvcc nvcc = nvcc(variables);
    Found sourceDir = sourceDir(variables, home, homeSource, compiledIn);
    boolean headers = sourceDir.folder().filter(d -> Files.isDirectory(d.resolve("device"))).isPresent();
    Optional<Path> pip = pipInclude(variables, sitePackages);
    Found ncclInclude = ncclInclude(variables, pip, compiledIn);
    Optional<String> ncclVersion = ncclInclude.folder().map(p -> p.resolve("nccl.h")).filter(Files::isRegularFile)
        .flatMap(NcclEpJit::ncclHeaderVersion);
    Found cudaInclude;
    String cudaHome = set(variables, "CUDA_HOME");
    String cudaPath = set(variables, "CUDA_PATH");
    if (set(variables, CUDA_INCLUDE_ENV) != null) {
      cudaInclude = new Found(Optional.of(Path.of(set(variables, CUDA_INCLUDE_ENV))), CUDA_INCLUDE_ENV);
    } else if (cudaHome != null || cudaPath != null) {
      cudaInclude = new Found(Optional.of(Path.of(cudaHome != null ? cudaHome : cudaPath, "include")),
          cudaHome != null ? "CUDA_HOME" : "CUDA_PATH");
    } else {
      cudaInclude = new Found(Optional.ofNullable(compiledIn.get(CUDA_INCLUDE_ENV)).map(Path::of), "config.h");
    }
    boolean cccl = cudaInclude.folder().filter(p -> Files.isDirectory(p.resolve("cccl"))).isPresent();
    return new Lookup(nvcc, nvcc.file().flatMap(NcclEpJit::nvccVersion), sourceDir, headers, ncclInclude, pip,
        ncclVersion, cudaInclude, cccl);
  }

  /**
   * pip's NCCL headers ({@code nvidia/nccl/include} with its {@code nccl.h}), which te-runtime points {@value
   * #BUILD_INCLUDE_ENV} at while neither it (not even empty) nor NCCL_HOME is set.
   */
  public static Optional<Path> pipInclude(Map<String, String> variables, Optional<Path> sitePackages) {
    if (variables.containsKey(BUILD_INCLUDE_ENV) || set(variables, "NCCL_HOME") != null) {
      return Optional.empty();
    }
    if (sitePackages.isEmpty()) {
      return Optional.empty();
    }
    Path include = sitePackages.get().resolve("nvidia/nccl/include");
    return Files.isRegularFile(include.resolve("nccl.h")) ? Optional.of(include) : Optional.empty();
  }

  /**
   * Where the JIT takes nvcc from: {@code $NCCL_EP_JIT_NVCC} or {@code $NVCC} naming a path (kept when executable);
   * else {@code $CUDA_HOME/bin/nvcc}, or {@code $CUDA_PATH}'s when CUDA_HOME is unset, when it exists; else the
   * first executable of that name (that of NCCL_EP_JIT_NVCC or NVCC without a '/', else {@code nvcc}) on PATH.
   */
  static Nvcc nvcc(Map<String, String> variables) {
    for (String name : List.of("NCCL_EP_JIT_NVCC", "NVCC")) {
      String explicit = set(variables, name);
      if (explicit != null && explicit.contains("/")) {
        return new Nvcc(Optional.of(Path.of(explicit)).filter(Files::isExecutable), name + "=" + explicit,
            List.of());
      } else if (explicit != null) {
        return onPath(variables.get("PATH"), explicit, name + "=" + explicit);
      }
    }
    for (String name : List.of("CUDA_HOME", "CUDA_PATH")) {
      String root = set(variables, name);
      if (root != null) {
        Path nvcc = Path.of(root, "bin", "nvcc");
        if (Files.exists(nvcc)) {
          return new Nvcc(Optional.of(nvcc), name + "=" + root, List.of());
        }
        break; // $CUDA_PATH is the JIT's alternative to an unset $CUDA_HOME only
      }
    }
    return onPath(variables.get("PATH"), "nvcc", "PATH");
  }

  /**
   * The first executable {@code name} in a folder PATH names by an absolute path. An empty or relative entry is
   * skipped ({@link UnnamedFolders}), with a sentence in the source; one that holds {@code name} before any named
   * folder does is {@link Nvcc#unnamed}.
   */
  private static Nvcc onPath(String path, String name, String source) {
    if (path == null) {
      return new Nvcc(Optional.empty(), source, List.of());
    }
    List<String> skipped = UnnamedFolders.warnings("PATH", path, ":", "programs");
    Optional<Path> found = Optional.empty();
    List<String> unnamed = new ArrayList<>();
    for (String folder : path.split(":", -1)) {
      Path file = Path.of(folder.isEmpty() ? "." : folder, name);
      if (found.isPresent() || !Files.isRegularFile(file) || !Files.isExecutable(file)) {
        continue;
      }
      if (UnnamedFolders.named(folder)) {
        found = Optional.of(file.toAbsolutePath().normalize());
      } else {
        unnamed.add(name + ": " + UnnamedFolders.describe("PATH", folder) + " holds "
            + file.toAbsolutePath().normalize() + ", which NCCL EP's JIT would run before any nvcc in a named"
            + " folder. Remove the entry from PATH, or set NCCL_EP_JIT_NVCC to the nvcc to use");
      }
    }
    return new Nvcc(found, skipped.isEmpty() ? source : source + "; " + String.join("; ", skipped), unnamed);
  }

  /**
   * The kernel headers: {@code $NCCL_EP_JIT_SOURCE_DIR}, else {@code $NCCL_EP_HOME/include/nccl_ep} ({@code home}'s
   * while the variable is unset; an empty one stays, as TE's provider never sets over a value, and the JIT treats it
   * as unset), else config.h's build-machine path.
   */
  private static Found sourceDir(Map<String, String> variables, Optional<Path> home, String homeSource,
      Map<String, String> compiledIn) {
    String source = set(variables, SOURCE_DIR_ENV);
    String value = variables.get(NcclEpProvider.HOME);
    Optional<Path> jitHome = value == null ? home : NcclEpProvider.home(value, null);
    if (source != null) {
      return new Found(Optional.of(Path.of(source)), SOURCE_DIR_ENV);
    } else if (value != null && !value.isEmpty()) {
      return new Found(jitHome.map(h -> h.resolve("include/nccl_ep")), NcclEpProvider.HOME
          + (Environment.setByRuntime(NcclEpProvider.HOME, value) ? " (set by te-runtime)" : ""));
    } else if (jitHome.isPresent()) {
      return new Found(jitHome.map(h -> h.resolve("include/nccl_ep")), homeSource);
    }
    return new Found(Optional.ofNullable(compiledIn.get(SOURCE_DIR_ENV)).map(Path::of), value == null ? "config.h"
        : "config.h (NCCL_EP_HOME is empty, which the JIT treats as unset)");
  }

  /** NCCL's headers: {@code $NCCL_EP_JIT_BUILD_INCLUDE_DIR}, {@code $NCCL_HOME/include}, pip's, config.h's. */
  private static Found ncclInclude(Map<String, String> variables, Optional<Path> pip, Map<String, String> compiledIn) {
    String value = set(variables, BUILD_INCLUDE_ENV);
    if (value != null) {
      return new Found(Optional.of(Path.of(value)), BUILD_INCLUDE_ENV
          + (Environment.setByRuntime(BUILD_INCLUDE_ENV, value) ? " (set by te-runtime: pip wheel)" : ""));
    } else if (set(variables, "NCCL_HOME") != null) {
      return new Found(Optional.of(Path.of(set(variables, "NCCL_HOME"), "include")), "NCCL_HOME");
    } else if (pip.isPresent()) {
      return new Found(pip, "pip wheel (te-runtime sets " + BUILD_INCLUDE_ENV + " when it loads TE or NCCL EP)");
    }
    return new Found(Optional.ofNullable(compiledIn.get(BUILD_INCLUDE_ENV)).map(Path::of), "config.h");
  }

  /**
   * A folder te-runtime may give the JIT as its cache, and where it comes from; none: a fresh private folder of the
   * process under java.io.tmpdir, made only when reached.
   */
  public record CacheCandidate(Optional<Path> folder, String from) {
    /** Why it is never used: it is the JIT's own default, {@link #SHARED_CACHE}. */
    public Optional<String> shared() {
      if (folder.isEmpty() || !folder.get().normalize().equals(SHARED_CACHE)) {
        return Optional.empty();
      }
      return Optional.of(from + " gives " + folder.get() + ", NCCL EP's own default, which every user of this"
          + " machine shares: never used");
    }
  }

  /** The candidates in order, and each value ignored with why. */
  public record CacheCandidates(List<CacheCandidate> candidates, List<String> ignored) {}

  /**
   * te-runtime's cache candidates while NCCL_EP_JIT_CACHE_DIR is unset or empty: {@code
   * $XDG_CACHE_HOME/nccl_ep/jit}, {@code $HOME/.cache/nccl_ep/jit}, the account's home's (when it differs from HOME),
   * a fresh folder. A relative value is ignored, as the XDG base directory specification asks.
   *
   * @param accountHome the account's home ({@code user.home}), or ""
   */
  public static CacheCandidates cacheCandidates(Map<String, String> variables, String accountHome) {
    List<CacheCandidate> candidates = new ArrayList<>();
    List<String> ignored = new ArrayList<>();
    String xdg = set(variables, "XDG_CACHE_HOME");
    if (xdg != null && UnnamedFolders.named(xdg)) {
      candidates.add(new CacheCandidate(Optional.of(Path.of(xdg, "nccl_ep", "jit")), "XDG_CACHE_HOME=" + xdg));
    } else if (xdg != null) {
      ignored.add("XDG_CACHE_HOME=" + xdg + " is relative, which the XDG base directory specification says to"
          + " ignore");
    }
    String home = set(variables, "HOME");
    if (home != null && UnnamedFolders.named(home)) {
      candidates.add(new CacheCandidate(Optional.of(Path.of(home, ".cache", "nccl_ep", "jit")), "HOME=" + home));
    } else if (home != null) {
      ignored.add("HOME=" + home + " is relative, so it names no fixed folder: ignored");
    }
    if (UnnamedFolders.named(accountHome) && !accountHome.equals(home)) {
      candidates.add(new CacheCandidate(Optional.of(Path.of(accountHome, ".cache", "nccl_ep", "jit")), "user.home="
          + accountHome));
    }
    candidates.add(new CacheCandidate(Optional.empty(), "a fresh private folder of this process (its kernels are"
        + " not reused by the next one)"));
    return new CacheCandidates(candidates, ignored);
  }

  /**
   * nvcc's release, read from files of its toolkit, never by running it (a report runs nothing; docs/runtime.md,
   * "Nothing runs from an unnamed folder"): the toolkit's {@code version.json} ({@code cuda_nvcc}), else the
   * {@code nvidia-cuda-nvcc} wheel's dist-info (in the toolkit's {@code dist-info/} when the toolkit was unpacked
   * from NVIDIA's wheels, as CUDA 13 is at /usr/local/cuda on this project's machines; or in the site-packages whose
   * {@code nvidia/cu13/bin/nvcc} it is, when its RECORD lists that file), else {@code CUDA_VERSION} of the toolkit's
   * {@code include/cuda.h} (major.minor only); once per file. {@code bin/nvcc.profile} holds no version.
   */
  public static Optional<String> nvccVersion(Path nvcc) {
    return NVCC_VERSIONS.computeIfAbsent(nvcc.toAbsolutePath().normalize(), file -> {
      Path root = file.getParent() == null ? null : file.getParent().getParent();
      if (root == null) {
        return Optional.empty();
      }
      Optional<String> version = firstMatch(root.resolve("version.json"), 1 << 20, Pattern.compile(
          "\"cuda_nvcc\"\\s*:\\s*\\{[^}]*?\"version\"\\s*:\\s*\"([^\"]+)\"")).map(m -> m.group(1));
      if (version.isEmpty()) {
        version = fromDistInfo(root.resolve("dist-info"), null);
      }
      if (version.isEmpty() && root.getParent() != null && root.getParent().getParent() != null) {
        Path site = root.getParent().getParent();
        version = fromDistInfo(site, site.relativize(file).toString());
      }
      return version.isPresent() ? version : fromCudaH(root.resolve("include/cuda.h"));
    });
  }

  /**
   * The first match of {@code pattern} in {@code file} read as ISO-8859-1, when it is a regular file below
   * {@code limit} bytes; empty when it is not, or cannot be read (the caller's next source then decides).
   */
  private static Optional<Matcher> firstMatch(Path file, long limit, Pattern pattern) {
    try {
      if (Files.isRegularFile(file) && Files.size(file) < limit) {
        Matcher m = pattern.matcher(Files.readString(file, StandardCharsets.ISO_8859_1));
        if (m.find()) {
          return Optional.of(m);
        }
      }
    } catch (IOException e) {
      // the next source
    }
    return Optional.empty();
  }

  /**
   * The version in the name of an {@code nvidia_cuda_nvcc[_cuNN]-<version>.dist-info} folder of {@code folder}.
   *
   * @param recorded the nvcc's path relative to {@code folder}, which the dist-info's RECORD must list; null when
   *     the folder is the toolkit's own dist-info/
   */
  private static Optional<String> fromDistInfo(Path folder, String recorded) {
    if (!Files.isDirectory(folder)) {
      return Optional.empty();
    }
    try (var names = Files.list(folder)) {
      for (Path info : names.sorted().toList()) {
        Matcher m = DIST_INFO.matcher(info.getFileName().toString());
        if (m.matches() && (recorded == null || lists(info.resolve("RECORD"), recorded))) {
          return Optional.of(m.group(1));
        }
      }
    } catch (IOException e) {
      // the next source
    }
    return Optional.empty();
  }

  private static boolean lists(Path record, String file) {
    try {
      if (!Files.isRegularFile(record) || Files.size(record) > (16 << 20)) {
        return false;
      }
      for (String line : Files.readAllLines(record, StandardCharsets.UTF_8)) {
        if (line.startsWith(file + ",")) {
          return true;
        }
      }
    } catch (IOException | UncheckedIOException e) {
      // not listed
    }
    return false;
  }

  /** {@code #define CUDA_VERSION 13000} is 13.0. */
  private static Optional<String> fromCudaH(Path header) {
    return firstMatch(header, MAX_HEADER_BYTES, Pattern.compile("#define\\s+CUDA_VERSION\\s+(\\d+)")).map(m -> {
      try {
        int code = Integer.parseInt(m.group(1));
        return code / 1000 + "." + code % 1000 / 10;
      } catch (NumberFormatException e) {
        return null; // unknown
      }
    });
  }

  /** The largest header read (real ones are tens of KiB): a larger one is not read, so memory stays bounded. */
  static final long MAX_HEADER_BYTES = 16 << 20;

  /** NCCL_MAJOR.NCCL_MINOR.NCCL_PATCH of nccl.h; empty when it is no regular file or is larger than a header is. */
  static Optional<String> ncclHeaderVersion(Path header) {
    try {
      if (!Files.isRegularFile(header) || Files.size(header) > MAX_HEADER_BYTES) {
        return Optional.empty();
      }
      String text = Files.readString(header, StandardCharsets.ISO_8859_1);
      List<String> parts = new ArrayList<>();
      for (String name : List.of("NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH")) {
        Matcher m = Pattern.compile("#define\\s+" + name + "\\s+(\\d+)").matcher(text);
        if (!m.find()) {
          return Optional.empty();
        }
        parts.add(m.group(1));
      }
      return Optional.of(String.join(".", parts));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** {@code #define NAME "value"} lines of config.h. */
  static Map<String, String> defines(Path configH) {
    Map<String, String> result = new HashMap<>();
    try {
      if (!Files.isRegularFile(configH) || Files.size(configH) > MAX_HEADER_BYTES) {
        return result;
      }
      Matcher m = Pattern.compile("#define\\s+(\\w+)\\s+\"([^\"]*)\"").matcher(Files.readString(configH,
          StandardCharsets.ISO_8859_1));
      while (m.find()) {
        result.put(m.group(1), m.group(2));
      }
    } catch (IOException e) {
      // none
    }
    return result;
  }

  /** A variable's value; an empty one counts as unset, as in the JIT. */
  private static String set(Map<String, String> variables, String name) {
    String value = variables.get(name);
    return value == null || value.isEmpty() ? null : value;
  }
}
