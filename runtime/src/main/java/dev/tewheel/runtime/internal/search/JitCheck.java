package dev.tewheel.runtime.internal.search;

import dev.tewheel.loader.Environment;
import dev.tewheel.loader.te.NcclEpJit;
import dev.tewheel.runtime.internal.ffm.Libc;
import dev.tewheel.runtime.internal.host.LinkerHost;
import dev.tewheel.runtime.internal.host.TrustedFolder;
import dev.tewheel.runtime.report.EnvironmentSetting;
import dev.tewheel.runtime.report.JitPreflight;
import dev.tewheel.runtime.report.NcclStatus;
import dev.tewheel.runtime.report.NcclVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * NCCL EP's JIT lookup ({@link NcclEpJit}) in this process, and the two variables te-runtime sets for it: a per-user
 * {@code NCCL_EP_JIT_CACHE_DIR} and, where pip's NCCL headers exist, {@code NCCL_EP_JIT_BUILD_INCLUDE_DIR}. Never over
 * a value someone set; an empty value counts as unset, as in the JIT.
 *
 * <p>The JIT loads the kernels it finds in its cache, so the cache folder is held to {@link TrustedFolder}'s rule:
 * te-runtime picks the first of {@link NcclEpJit#cacheCandidates} that the rule accepts (the JIT's shared {@code
 * /tmp/nccl_ep/jit} never), and says why it passed the others. A folder the user named in {@code
 * NCCL_EP_JIT_CACHE_DIR} is never replaced: when the rule refuses it, the preflight says so and te-runtime refuses to
 * load TE or NCCL EP.
 */
public final class JitCheck {
  private static final String CACHE_ENV = NcclEpJit.CACHE_ENV;
  private static final String BUILD_INCLUDE_ENV = NcclEpJit.BUILD_INCLUDE_ENV;
  private static final Path SHARED_CACHE = NcclEpJit.SHARED_CACHE;
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
   * @param source who chose it (see {@link JitPreflight#cacheDirSource})
   * @param refused the folders te-runtime passed over, each with why and what to do
   * @param problem set when the folder someone set is refused: te-runtime will not load with it
   * @param set whether te-runtime sets NCCL_EP_JIT_CACHE_DIR to {@code folder} when it loads
   */
  record Cache(Path folder, String source, List<String> refused, Optional<String> problem, boolean set) {}

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
    NcclEpJit.CacheCandidates candidates = NcclEpJit.cacheCandidates(LinkerHost.getenv(NcclEpJit.CACHE_VARIABLES),
        System.getProperty("user.home", ""));
    List<String> refused = new ArrayList<>(candidates.ignored());
    for (NcclEpJit.CacheCandidate candidate : candidates.candidates()) {
      if (candidate.shared().isPresent()) {
        refused.add(candidate.shared().get());
        continue;
      }
      Path folder = candidate.folder().orElse(null);
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
   * Sets the cache folder, made private and checked first, and pip's NCCL headers where the JIT would take no others
   * (setenv; over an empty value, which the JIT treats as unset); returns it all.
   *
   * @throws UnsafeCache when the cache folder someone set is refused; nothing is set then
   */
  public static List<EnvironmentSetting> apply(Optional<Path> sitePackages) throws UnsafeCache {
    Optional<Path> include = NcclEpJit.pipInclude(LinkerHost.getenv(NcclEpJit.VARIABLES), sitePackages);
    Cache cache = cache(true);
    if (cache.problem().isPresent()) {
      throw new UnsafeCache(cache.problem().get());
    }
    List<EnvironmentSetting> settings = new ArrayList<>();
    if (cache.set()) {
      settings.add(set(CACHE_ENV, cache.folder().toString(), true));
    }
    include.ifPresent(dir -> settings.add(set(BUILD_INCLUDE_ENV, dir.toString(), true)));
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
   * The preflight: the JIT's lookup ({@link NcclEpJit}) over this process's variables, and the cache folder.
   *
   * @param ncclEpHome the folder te-runtime sets NCCL_EP_HOME to when it loads TE (the bundle's), if any
   * @param configH the bundle's {@code include/nccl_ep/config.h}, whose paths the JIT falls back to
   * @param sitePackages where pip's {@code nvidia/nccl/include} would be
   * @param nccl the NCCL gate, for the version loaded
   */
  public static JitPreflight preflight(Optional<Path> ncclEpHome, Optional<Path> configH,
      Optional<Path> sitePackages, NcclStatus nccl) {
    // NCCL_EP_HOME, while unset, is the bundle's, which te-runtime sets when it loads TE
    NcclEpJit.Lookup jit = NcclEpJit.lookup(LinkerHost.getenv(NcclEpJit.VARIABLES), ncclEpHome, "bundle (te-runtime sets "
        + Config.NCCL_EP_HOME_ENV + "=" + ncclEpHome.map(Path::toString).orElse("") + " when it loads TE)", configH,
        sitePackages);
    List<EnvironmentSetting> environment = new ArrayList<>();
    jit.pipInclude().ifPresent(dir -> environment.add(new EnvironmentSetting(BUILD_INCLUDE_ENV, dir.toString(),
        true, dir.toString())));
    Cache cache = cache(false);
    if (cache.set()) {
      environment.add(new EnvironmentSetting(CACHE_ENV, cache.folder().toString(), true, cache.folder().toString()));
    }
    List<String> missing = jit.missing(nccl.version().map(NcclVersion::toString),
        nccl.library().map(Path::toString).orElse(""));
    List<String> notReady = new ArrayList<>(missing);
    cache.problem().ifPresent(notReady::add);
    String verdict = notReady.isEmpty() ? "JIT ready"
        : "JIT not ready: " + String.join("; ", notReady) + (missing.isEmpty() ? ""
            : ". ncclEpDispatch will fail: on a real H200 the NCCL EP build returned ncclInternalError (3) and"
                + " logged `No such file` when its headers were missing; it did not fall back to precompiled"
                + " kernels");
    Optional<NcclVersion> headerVersion = jit.ncclHeaderVersion().flatMap(JitCheck::ncclVersion);
    return new JitPreflight(jit.nvcc().file(), jit.nvcc().source(), jit.nvccVersion(), jit.sourceDir().folder(),
        jit.sourceDir().source(), jit.ncclInclude().folder(), jit.ncclInclude().source(), headerVersion,
        nccl.version(), jit.cudaInclude().folder(), jit.cudaInclude().source(), jit.cccl(), cache.folder(),
        cache.source(), cache.refused(), environment, notReady, verdict);
  }

  private static Optional<NcclVersion> ncclVersion(String text) {
    try {
      return Optional.of(NcclVersion.parse(text));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
