package dev.tewheel.runtime.internal.search;

import dev.tewheel.loader.Environment;
import dev.tewheel.loader.te.NcclEpProvider;
import dev.tewheel.runtime.internal.ffm.Libc;
import dev.tewheel.runtime.internal.host.TrustedFolder;
import dev.tewheel.runtime.internal.host.UnnamedFolders;
import dev.tewheel.runtime.report.EnvironmentSetting;
import dev.tewheel.runtime.report.JitPreflight;
import dev.tewheel.runtime.report.NcclStatus;
import dev.tewheel.runtime.report.NcclVersion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NCCL EP's JIT lookup (nccl-extensions {@code nccl_ep/device/jit}: {@code resolve_nvcc},
 * {@code configured_source_dir}, {@code configured_build_include_dir}, {@code configured_cuda_include_dir},
 * {@code JitCache::root_dir}), evaluated from Java without loading anything, and the two variables te-runtime sets
 * for it: a per-user {@code NCCL_EP_JIT_CACHE_DIR} and, where pip's NCCL headers exist, {@code
 * NCCL_EP_JIT_BUILD_INCLUDE_DIR}. Never over a value someone set; an empty value counts as unset, as in the JIT.
 *
 * <p>The JIT loads the kernels it finds in its cache, so the cache folder is held to {@link TrustedFolder}'s rule:
 * te-runtime picks the first of {@code $XDG_CACHE_HOME/nccl_ep/jit}, {@code $HOME/.cache/nccl_ep/jit}, the
 * account's home ({@code user.home}) {@code /.cache/nccl_ep/jit} and a fresh private folder under
 * {@code java.io.tmpdir} that the rule accepts (relative values ignored, the JIT's shared {@code /tmp/nccl_ep/jit}
 * never), and says why it passed the others. A folder the user named in {@code NCCL_EP_JIT_CACHE_DIR} is never
 * replaced: when the rule refuses it, the preflight says so and te-runtime refuses to load TE or NCCL EP.
 */
public final class JitCheck {
  public static final String CACHE_ENV = "NCCL_EP_JIT_CACHE_DIR";
  public static final String BUILD_INCLUDE_ENV = "NCCL_EP_JIT_BUILD_INCLUDE_DIR";
  public static final Path SHARED_CACHE = Path.of("/tmp/nccl_ep/jit");
  private static final Map<Path, Optional<String>> NVCC_VERSIONS = new ConcurrentHashMap<>();
  /** The last resort, made once per process: a private folder of its own under java.io.tmpdir. */
  private static Path freshCache;

  private JitCheck() {}

  /** A cache folder someone set that {@link TrustedFolder} refuses: te-runtime loads neither TE nor NCCL EP. */
  public static final class UnsafeCache extends Exception {
    private static final long serialVersionUID = 1L;

    UnsafeCache(String message) {
      super(message);
    }
  }

  /**
   * The JIT's cache folder and why.
   *
   * @param folder the folder the JIT will use
   * @param source who chose it (see {@link JitPreflight#cacheDirSource})
   * @param refused the folders te-runtime passed over, each with why and what to do
   * @param problem set when the folder someone set is refused: te-runtime will not load with it
   * @param set whether te-runtime sets NCCL_EP_JIT_CACHE_DIR to {@code folder} when it loads
   */
  record Cache(Path folder, String source, List<String> refused, Optional<String> problem, boolean set) {}

  /** What te-runtime sets when it loads TE or NCCL EP; each empty when it would leave the variable alone. */
  record Plan(Cache cache, Optional<String> buildInclude) {}

  static Plan plan(Optional<Path> sitePackages, boolean create) {
    Optional<String> include = Optional.empty();
    if (Libc.getenv(BUILD_INCLUDE_ENV) == null && Discovery.env("NCCL_HOME") == null && sitePackages.isPresent()) {
      Path pip = sitePackages.get().resolve("nvidia/nccl/include");
      if (Files.isRegularFile(pip.resolve("nccl.h"))) {
        include = Optional.of(pip.toString());
      }
    }
    return new Plan(cache(create), include);
  }

  /**
   * The cache folder: a value someone set, checked, or te-runtime's first candidate the rule accepts.
   *
   * @param create whether to make the candidates (owner-only) on the way, as a load does; a preflight does not
   */
  static Cache cache(boolean create) {
    String value = Libc.getenv(CACHE_ENV);
    if (value != null && !value.isEmpty()) {
      boolean ours = Environment.setByRuntime(CACHE_ENV, value);
      Path folder = Path.of(value).toAbsolutePath().normalize();
      Optional<String> problem = refusal(folder).map(why -> (ours ? "the cache folder te-runtime set, " : CACHE_ENV
          + " names ") + why + ". te-runtime will not load TE or NCCL EP with it, since the JIT would load the"
          + " kernels it finds there; " + (ours ? "" : "te-runtime leaves a value someone set alone: ") + "point "
          + CACHE_ENV + " at a private folder of yours, or unset it to let te-runtime pick one");
      return new Cache(folder, ours ? "te-runtime" : CACHE_ENV, List.of(), problem, false);
    }
    List<String> refused = new ArrayList<>();
    for (Candidate candidate : candidates(refused)) {
      Path folder = candidate.folder();
      if (folder != null && folder.normalize().equals(SHARED_CACHE)) {
        refused.add(candidate.from() + " gives " + folder + ", NCCL EP's own default, which every user of this"
            + " machine shares: never used");
        continue;
      }
      try {
        if (folder == null) {
          folder = freshCache();
        }
        // Checked before anything is made, so nothing is made below a folder another user could change.
        Optional<TrustedFolder.Refusal> refusal = TrustedFolder.wouldRefuse(folder);
        if (refusal.isPresent()) {
          throw refusal.get();
        }
        if (create) {
          Files.createDirectories(folder, TrustedFolder.PRIVATE);
          folder = TrustedFolder.require(folder);
        }
      } catch (TrustedFolder.Refusal refusal) {
        refused.add(candidate.from() + ": " + refusal.getMessage());
        continue;
      } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
        refused.add(candidate.from() + ": " + (folder == null ? "java.io.tmpdir" : folder) + " could not be made or"
            + " checked (" + e + ")");
        continue;
      }
      String source = "te-runtime (sets " + CACHE_ENV + " when it loads TE or NCCL EP" + (value == null
          ? "; unset, the JIT would use " + SHARED_CACHE + ", shared by all users)"
          : "; it is set but empty, which the JIT treats as unset, so it would use " + SHARED_CACHE
              + ", shared by all users)");
      return new Cache(folder, source + (refused.isEmpty() ? "" : "; " + candidate.from()), refused,
          Optional.empty(), true);
    }
    return new Cache(SHARED_CACHE, "none (no private folder could be made, so the JIT would use " + SHARED_CACHE
        + ", shared by all users)", refused, Optional.of("no private cache folder for NCCL EP's JIT could be made ("
        + String.join("; ", refused) + "), and te-runtime will not load TE or NCCL EP with the shared " + SHARED_CACHE
        + ". Set " + CACHE_ENV + " to a private folder of yours"), false);
  }

  /** A folder te-runtime could use, and where it comes from; a null folder is the fresh one, made when reached. */
  private record Candidate(Path folder, String from) {}

  /** te-runtime's candidates in order; relative values are ignored (and said so), as the XDG specification asks. */
  private static List<Candidate> candidates(List<String> refused) {
    List<Candidate> candidates = new ArrayList<>();
    String xdg = Discovery.env("XDG_CACHE_HOME");
    if (xdg != null && xdg.startsWith("/")) {
      candidates.add(new Candidate(Path.of(xdg, "nccl_ep", "jit"), "XDG_CACHE_HOME=" + xdg));
    } else if (xdg != null) {
      refused.add("XDG_CACHE_HOME=" + xdg + " is relative, which the XDG base directory specification says to"
          + " ignore");
    }
    String home = Discovery.env("HOME");
    if (home != null && home.startsWith("/")) {
      candidates.add(new Candidate(Path.of(home, ".cache", "nccl_ep", "jit"), "HOME=" + home));
    } else if (home != null) {
      refused.add("HOME=" + home + " is relative, so it names no fixed folder: ignored");
    }
    String account = System.getProperty("user.home", "");
    if (account.startsWith("/") && !account.equals(home)) {
      candidates.add(new Candidate(Path.of(account, ".cache", "nccl_ep", "jit"), "user.home=" + account));
    }
    candidates.add(new Candidate(null, "a fresh private folder of this process (its kernels are not reused by the"
        + " next one)"));
    return candidates;
  }

  private static synchronized Path freshCache() throws IOException {
    if (freshCache == null) {
      freshCache = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "nccl_ep-jit-",
          TrustedFolder.PRIVATE);
    }
    return freshCache;
  }

  /** Why the rule refuses {@code folder} (made by someone else, so not made here), or empty. */
  private static Optional<String> refusal(Path folder) {
    try {
      return TrustedFolder.wouldRefuse(folder).map(TrustedFolder.Refusal::getMessage);
    } catch (IOException e) {
      return Optional.of(folder + " cannot be checked (" + e + ")");
    }
  }

  /**
   * Sets what {@link #plan} proposes (setenv; over an empty cache value, which the JIT treats as unset), the cache
   * folder made private and checked first; returns it all.
   *
   * @throws UnsafeCache when the cache folder someone set is refused; nothing is set then
   */
  public static List<EnvironmentSetting> apply(Optional<Path> sitePackages) throws UnsafeCache {
    Plan plan = plan(sitePackages, true);
    if (plan.cache().problem().isPresent()) {
      throw new UnsafeCache(plan.cache().problem().get());
    }
    List<EnvironmentSetting> settings = new ArrayList<>();
    if (plan.cache().set()) {
      settings.add(set(CACHE_ENV, plan.cache().folder().toString(), true));
    }
    plan.buildInclude().ifPresent(dir -> settings.add(set(BUILD_INCLUDE_ENV, dir, true)));
    return settings;
  }

  /**
   * setenv where the variable is unset; a user's value always wins.
   *
   * @param overEmpty whether an empty value counts as unset (the JIT's variables), or stays (NCCL_EP_HOME, where
   *     TE's provider reads an empty value as "no home")
   */
  public static EnvironmentSetting set(String name, String proposed, boolean overEmpty) {
    String before = Libc.getenv(name);
    boolean unset = before == null || (overEmpty && before.isEmpty());
    try {
      Libc.setenv(name, proposed, overEmpty && unset); // never over a value that stays
    } catch (IOException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
    if (unset) {
      Environment.recordSet(name, proposed);
    }
    String after = Optional.ofNullable(Libc.getenv(name)).orElse(proposed);
    return new EnvironmentSetting(name, after, unset || Environment.setByRuntime(name, before), proposed);
  }

  /**
   * The preflight.
   *
   * @param ncclEpHome the folder te-runtime sets NCCL_EP_HOME to when it loads TE (the bundle's), if any
   * @param configH the bundle's {@code include/nccl_ep/config.h}, whose paths the JIT falls back to
   * @param sitePackages where pip's {@code nvidia/nccl/include} would be
   * @param nccl the NCCL gate, for the version loaded
   */
  public static JitPreflight preflight(Optional<Path> ncclEpHome, Optional<Path> configH,
      Optional<Path> sitePackages, NcclStatus nccl) {
    List<String> missing = new ArrayList<>();
    Map<String, String> compiledIn = configH.map(JitCheck::defines).orElse(Map.of());
    Plan plan = plan(sitePackages, false);
    List<EnvironmentSetting> environment = new ArrayList<>();

    // nvcc: the JIT's order is loader's; the PATH search is te-runtime's, which also says what it skipped
    Map<String, String> variables = new java.util.HashMap<>();
    for (String name : List.of("NCCL_EP_JIT_NVCC", "NVCC", "CUDA_HOME", "CUDA_PATH", "NCCL_EP_JIT_SOURCE_DIR")) {
      String value = Libc.getenv(name);
      if (value != null) {
        variables.put(name, value);
      }
    }
    NcclEpProvider.Nvcc lookup = NcclEpProvider.nvcc(variables);
    List<String> skipped = new ArrayList<>();
    Optional<Path> nvcc = lookup.onPath() == null ? lookup.file() : onPath(lookup.onPath(), skipped, missing);
    String nvccSource = lookup.source() + (skipped.isEmpty() ? "" : "; " + String.join("; ", skipped));
    Optional<String> nvccVersion = nvcc.flatMap(JitCheck::nvccVersion);
    if (nvcc.isEmpty()) {
      missing.add("nvcc: none found (" + nvccSource + "; the JIT tries NCCL_EP_JIT_NVCC, NVCC, $CUDA_HOME/bin/nvcc"
          + " or $CUDA_PATH/bin/nvcc, then nvcc on PATH). Install the CUDA toolkit's nvcc or set NCCL_EP_JIT_NVCC");
    }

    // NCCL EP's kernel headers, by loader's rule: NCCL_EP_HOME, else the bundle's home te-runtime sets it to when it
    // is unset (never over a value: an empty one stays, and names no home), else config.h's compiled-in path
    String home = Libc.getenv(Config.NCCL_EP_HOME_ENV);
    Optional<Path> jitHome = home == null ? ncclEpHome : NcclEpProvider.home(home, null);
    Optional<Path> sourceDir = NcclEpProvider.sourceDir(variables, jitHome);
    String sourceDirSource;
    if (Discovery.env("NCCL_EP_JIT_SOURCE_DIR") != null) {
      sourceDirSource = "NCCL_EP_JIT_SOURCE_DIR";
    } else if (home != null && !home.isEmpty()) {
      sourceDirSource = Environment.setByRuntime(Config.NCCL_EP_HOME_ENV, home) ? "NCCL_EP_HOME (set by te-runtime)"
          : "NCCL_EP_HOME";
    } else if (sourceDir.isPresent()) {
      sourceDirSource = "bundle (te-runtime sets NCCL_EP_HOME=" + ncclEpHome.get() + " when it loads TE)";
    } else {
      sourceDir = Optional.ofNullable(compiledIn.get("NCCL_EP_JIT_SOURCE_DIR")).map(Path::of);
      sourceDirSource = home == null ? "config.h" : "config.h (NCCL_EP_HOME is empty, which the JIT treats as unset)";
    }
    if (sourceDir.isEmpty() || !Files.isDirectory(sourceDir.get().resolve("device"))) {
      missing.add("NCCL EP's kernel headers: " + sourceDir.map(p -> p + "/device is not a folder")
          .orElse("no folder known") + " (" + sourceDirSource + "). Set NCCL_EP_HOME to the folder whose"
          + " include/nccl_ep/ holds them (wheel_lib/nccl_ep in TE's layout)");
    }

    // NCCL's headers
    Optional<Path> ncclInclude;
    String ncclIncludeSource;
    String value = Libc.getenv(BUILD_INCLUDE_ENV);
    String ncclHome = Discovery.env("NCCL_HOME");
    if (value != null && !value.isEmpty()) {
      ncclInclude = Optional.of(Path.of(value));
      ncclIncludeSource = Environment.setByRuntime(BUILD_INCLUDE_ENV, value) ? BUILD_INCLUDE_ENV
          + " (set by te-runtime: pip wheel)" : BUILD_INCLUDE_ENV;
    } else if (ncclHome != null) {
      ncclInclude = Optional.of(Path.of(ncclHome, "include"));
      ncclIncludeSource = "NCCL_HOME";
    } else if (plan.buildInclude().isPresent()) {
      ncclInclude = plan.buildInclude().map(Path::of);
      ncclIncludeSource = "pip wheel (te-runtime sets " + BUILD_INCLUDE_ENV + " when it loads TE or NCCL EP)";
      environment.add(new EnvironmentSetting(BUILD_INCLUDE_ENV, plan.buildInclude().get(), true,
          plan.buildInclude().get()));
    } else {
      ncclInclude = Optional.ofNullable(compiledIn.get(BUILD_INCLUDE_ENV)).map(Path::of);
      ncclIncludeSource = "config.h";
    }
    Optional<NcclVersion> headerVersion = ncclInclude.map(p -> p.resolve("nccl.h")).filter(Files::isRegularFile)
        .flatMap(JitCheck::ncclHeaderVersion);
    if (ncclInclude.isEmpty() || !Files.isRegularFile(ncclInclude.get().resolve("nccl.h"))) {
      missing.add("NCCL's headers: " + ncclInclude.map(p -> "no nccl.h in " + p).orElse("no folder known") + " ("
          + ncclIncludeSource + "). Set NCCL_HOME or " + BUILD_INCLUDE_ENV + ", or install nvidia-nccl-cu12/-cu13"
          + " (its nvidia/nccl/include is used)");
    } else if (!Files.isRegularFile(ncclInclude.get().resolve("nccl_device.h"))) {
      missing.add("NCCL's device headers: no nccl_device.h in " + ncclInclude.get() + " (NCCL >= 2.28 has it)");
    }
    if (headerVersion.isPresent() && nccl.version().isPresent() && !headerVersion.equals(nccl.version())) {
      missing.add("nccl.h in " + ncclInclude.get() + " declares " + headerVersion.get() + " but the NCCL loaded is "
          + nccl.version().get() + " (" + nccl.library().map(Path::toString).orElse("") + "): kernels would be"
          + " built against another NCCL's device API. Point NCCL_HOME at the loaded NCCL's installation");
    }

    // CUDA's headers
    Optional<Path> cudaInclude;
    String cudaIncludeSource;
    value = Discovery.env("NCCL_EP_JIT_CUDA_INCLUDE_DIR");
    String cudaHome = Discovery.env("CUDA_HOME");
    String cudaPath = Discovery.env("CUDA_PATH");
    if (value != null) {
      cudaInclude = Optional.of(Path.of(value));
      cudaIncludeSource = "NCCL_EP_JIT_CUDA_INCLUDE_DIR";
    } else if (cudaHome != null || cudaPath != null) {
      cudaInclude = Optional.of(Path.of(cudaHome != null ? cudaHome : cudaPath, "include"));
      cudaIncludeSource = cudaHome != null ? "CUDA_HOME" : "CUDA_PATH";
    } else {
      cudaInclude = Optional.ofNullable(compiledIn.get("NCCL_EP_JIT_CUDA_INCLUDE_DIR")).map(Path::of);
      cudaIncludeSource = "config.h";
    }
    boolean cccl = cudaInclude.map(p -> Files.isDirectory(p.resolve("cccl"))).orElse(false);
    if (cudaInclude.isEmpty() || !Files.isRegularFile(cudaInclude.get().resolve("cuda_runtime.h"))) {
      missing.add("CUDA's headers: " + cudaInclude.map(p -> "no cuda_runtime.h in " + p).orElse("no folder known")
          + " (" + cudaIncludeSource + "). Set CUDA_HOME or NCCL_EP_JIT_CUDA_INCLUDE_DIR");
    } else if (!cccl && !Files.isDirectory(cudaInclude.get().resolve("cuda/std"))) {
      missing.add("CUDA's C++ core libraries: neither " + cudaInclude.get().resolve("cccl") + " nor "
          + cudaInclude.get().resolve("cuda/std") + " exists");
    }

    // the cache
    Cache cache = plan.cache();
    if (cache.set()) {
      environment.add(new EnvironmentSetting(CACHE_ENV, cache.folder().toString(), true, cache.folder().toString()));
    }

    List<String> notReady = new ArrayList<>(missing);
    cache.problem().ifPresent(notReady::add);
    String verdict = notReady.isEmpty() ? "JIT ready"
        : "JIT not ready: " + String.join("; ", notReady) + (missing.isEmpty() ? ""
            : ". ncclEpDispatch will fail: on a real H200 the NCCL EP build returned ncclInternalError (3) and"
                + " logged `No such file` when its headers were missing; it did not fall back to precompiled"
                + " kernels");
    return new JitPreflight(nvcc, nvccSource, nvccVersion, sourceDir, sourceDirSource, ncclInclude,
        ncclIncludeSource, headerVersion, nccl.version(), cudaInclude, cudaIncludeSource, cccl, cache.folder(),
        cache.source(), cache.refused(), environment, notReady, verdict);
  }

  /**
   * The first executable {@code name} in a folder PATH names by an absolute path. An empty or relative entry is
   * skipped ({@link UnnamedFolders}), with a sentence in {@code skipped}; one that holds {@code name} before any named
   * folder does is also a problem in {@code missing}: NCCL EP's JIT, which searches PATH as a shell does, would run
   * that program from whatever folder the process runs in.
   */
  private static Optional<Path> onPath(String name, List<String> skipped, List<String> missing) {
    String path = Libc.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String warning : UnnamedFolders.warnings("PATH", path, ":", "programs")) {
      skipped.add(warning);
    }
    Optional<Path> found = Optional.empty();
    for (String folder : path.split(":", -1)) {
      Path file = Path.of(folder.isEmpty() ? "." : folder, name);
      if (!Files.isRegularFile(file) || !Files.isExecutable(file)) {
        continue;
      }
      if (!UnnamedFolders.named(folder)) {
        if (found.isEmpty()) {
          missing.add(name + ": " + UnnamedFolders.describe("PATH", folder) + " holds " + file.toAbsolutePath()
              .normalize() + ", which NCCL EP's JIT would run before any nvcc te-runtime reports. Remove the entry"
              + " from PATH, or set NCCL_EP_JIT_NVCC to the nvcc to use");
        }
        continue;
      }
      if (found.isEmpty()) {
        found = Optional.of(file.toAbsolutePath().normalize());
      }
    }
    return found;
  }

  private static final Pattern DIST_INFO = Pattern.compile("nvidia_cuda_nvcc(?:_cu\\d+)?-(\\d[^-]*)\\.dist-info");

  /**
   * nvcc's release, read from files of its toolkit, never by running it (a report runs nothing; docs/runtime.md,
   * "Nothing runs from an unnamed folder"): the toolkit's {@code version.json} ({@code cuda_nvcc}), else the
   * {@code nvidia-cuda-nvcc} wheel's dist-info (in the toolkit's {@code dist-info/} when the toolkit was unpacked
   * from NVIDIA's wheels, as CUDA 13 is at /usr/local/cuda on this project's machines; or in the site-packages whose
   * {@code nvidia/cu13/bin/nvcc} it is, when its RECORD lists that file), else {@code CUDA_VERSION} of the toolkit's
   * {@code include/cuda.h} (major.minor only); once per file. {@code bin/nvcc.profile} holds no version.
   */
  static Optional<String> nvccVersion(Path nvcc) {
    return NVCC_VERSIONS.computeIfAbsent(nvcc.toAbsolutePath().normalize(), file -> {
      Path root = file.getParent() == null ? null : file.getParent().getParent();
      if (root == null) {
        return Optional.empty();
      }
      Optional<String> version = fromVersionJson(root.resolve("version.json"));
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

  private static Optional<String> fromVersionJson(Path json) {
    Pattern version = Pattern.compile("\"cuda_nvcc\"\\s*:\\s*\\{[^}]*?\"version\"\\s*:\\s*\"([^\"]+)\"");
    return firstMatch(json, 1 << 20, version).map(m -> m.group(1));
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
    } catch (IOException | java.io.UncheckedIOException e) {
      // not listed
    }
    return false;
  }

  /** {@code #define CUDA_VERSION 13000} is 13.0. */
  private static Optional<String> fromCudaH(Path header) {
    return firstMatch(header, 16 << 20, Pattern.compile("#define\\s+CUDA_VERSION\\s+(\\d+)")).map(m -> {
      try {
        int code = Integer.parseInt(m.group(1));
        return code / 1000 + "." + code % 1000 / 10;
      } catch (NumberFormatException e) {
        return null; // unknown
      }
    });
  }

  /** NCCL_MAJOR, NCCL_MINOR, NCCL_PATCH of nccl.h. */
  static Optional<NcclVersion> ncclHeaderVersion(Path header) {
    try {
      String text = Files.readString(header, StandardCharsets.ISO_8859_1);
      String[] parts = new String[3];
      String[] names = {"NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH"};
      for (int i = 0; i < 3; i++) {
        Matcher m = Pattern.compile("#define\\s+" + names[i] + "\\s+(\\d+)").matcher(text);
        if (!m.find()) {
          return Optional.empty();
        }
        parts[i] = m.group(1);
      }
      return Optional.of(NcclVersion.parse(String.join(".", parts)));
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** {@code #define NAME "value"} lines of config.h. */
  static Map<String, String> defines(Path configH) {
    Map<String, String> result = new java.util.HashMap<>();
    try {
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
}
