package dev.tewheel.runtime;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.runtime.error.LoadException;
import dev.tewheel.runtime.internal.ffm.Libc;
import dev.tewheel.runtime.internal.ffm.NativeAccess;
import dev.tewheel.runtime.internal.load.LoadSequence;
import dev.tewheel.runtime.internal.load.LoadedLibrary;
import dev.tewheel.runtime.internal.search.Config;
import dev.tewheel.runtime.internal.search.Discovery;
import dev.tewheel.runtime.internal.search.JitCheck;
import dev.tewheel.runtime.internal.search.Resolver;
import dev.tewheel.runtime.nccl.Nccl;
import dev.tewheel.runtime.ncclep.NcclEp;
import dev.tewheel.runtime.report.Availability;
import dev.tewheel.runtime.report.EnvironmentSetting;
import dev.tewheel.runtime.report.JitPreflight;
import dev.tewheel.runtime.report.NativeLibrary;
import dev.tewheel.runtime.report.NativeWorld;
import dev.tewheel.runtime.report.NcclVersion;
import dev.tewheel.runtime.te.TransformerEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Finds a wheel_lib bundle and loads its libraries with java.lang.foreign; see docs/runtime.md.
 *
 * <pre>{@code
 * TeRuntime runtime = TeRuntime.builder().wheelLib(Path.of(".../transformer_engine/wheel_lib")).build();
 * Availability report = runtime.availability();     // never loads NCCL EP
 * TransformerEngine te = runtime.loadTransformerEngine(); // NCCL first, then TE, as TE's Python loads them
 * NcclEp ep = runtime.loadNcclEp();                  // once per process; throws LoadException with the report
 * }</pre>
 *
 * <p>{@link #availability()} and {@link #loadNcclEp()} apply one rule (bundle {@code NcclEpSelection} with
 * {@code NcclEpFunctions.REQUIRED}, read from the ELF files, never by dlopen), so availability says yes exactly when
 * the load succeeds, and when TE's own provider would load the same file. Every method first checks that
 * native access is enabled for this module and otherwise throws IllegalCallerException naming the flag.
 */
public final class TeRuntime {
  private final Config config;

  private TeRuntime(Config config) {
    this.config = config;
  }

  /** A runtime configured only by system properties, environment and the class path. */
  public static TeRuntime defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Whether NCCL EP can be loaded, and why: the search, every candidate with its verdict, the NCCL gate. Reads
   * files and loads (then unloads) libnccl.so.2; never loads an NCCL EP library, so no constructor of a wrong one
   * runs. A class-path bundle is extracted on the first call.
   *
   * @throws IllegalArgumentException when a system property holds a malformed value
   */
  public Availability availability() {
    NativeAccess.check(TeRuntime.class.getModule());
    return Resolver.resolve(config).availability();
  }

  /**
   * TE's native world (cudart, cuBLASLt, cuBLAS, cuDNN, NVRTC, cuRAND, NCCL), found with TE's search order, each with
   * its provenance and every copy already mapped. Loads nothing: versions come from the libraries themselves only
   * when they are already mapped, else from their SONAME or file name.
   */
  public NativeWorld nativeWorld() {
    NativeAccess.check(TeRuntime.class.getModule());
    Resolver.Located located = Resolver.locate(config);
    return Discovery.discover(config, located.bundle().map(Resolver.Bundle::folder),
        located.bundle().flatMap(Resolver.Bundle::transformerEngineLibrary));
  }

  /**
   * What NCCL EP's JIT will use: nvcc, its kernel headers, NCCL's and CUDA's headers, the cache folder; and the
   * verdict. Loads nothing and sets nothing (the variables te-runtime would set are listed).
   */
  public JitPreflight jitPreflight() {
    NativeAccess.check(TeRuntime.class.getModule());
    Resolver.Resolution resolution = Resolver.resolve(config);
    Optional<Resolver.Bundle> bundle = resolution.bundle();
    Optional<Path> home = bundle.flatMap(Resolver.Bundle::ncclEpHome);
    return JitCheck.preflight(home, configH(bundle, home),
        Discovery.sitePackages(bundle.map(Resolver.Bundle::folder)).folder(), resolution.availability().nccl());
  }

  private static Optional<Path> configH(Optional<Resolver.Bundle> bundle, Optional<Path> home) {
    Optional<Path> fromManifest = bundle.flatMap(b -> b.manifest().map(m -> m.includeRoot())
        .filter(Objects::nonNull).map(root -> b.folder().resolve(root).resolve("nccl_ep/config.h")));
    return fromManifest.or(() -> home.map(h -> h.resolve("include/nccl_ep/config.h")))
        .filter(Files::isRegularFile);
  }

  /**
   * Loads TE's native world, once per process and in dependency order, each library with RTLD_NOW | RTLD_GLOBAL as
   * TE's Python does: cudart, cuBLASLt, cuBLAS, cuDNN and its sub-libraries, NVRTC, cuRAND, then NCCL
   * ({@link #loadNccl()}). A library already mapped is not loaded again; a skipped one is left out.
   *
   * @return the world as mapped afterwards (versions now read from the libraries)
   * @throws LoadException naming every library that was not found, with the pip wheel to install, or a dlopen
   *     failure
   */
  public NativeWorld loadNativeLibraries() {
    NativeAccess.check(TeRuntime.class.getModule());
    NativeWorld world = nativeWorld();
    LoadSequence sequence = new LoadSequence(config);
    if (!world.problems().isEmpty()) {
      throw sequence.failure("TE's native libraries cannot all be loaded: " + String.join("; ", world.problems()));
    }
    loadWorld(world, true, sequence);
    return nativeWorld();
  }

  /** Loads the world's found libraries in order; strict: a dlopen failure throws, else it is left to TE's load. */
  private static void loadWorld(NativeWorld world, boolean strict, LoadSequence sequence) {
    synchronized (ProcessState.LOADS) {
      for (NativeLibrary library : world.libraries()) {
        if (library.file().isEmpty() || library.foundBy() == NativeLibrary.FoundBy.ALREADY_LOADED) {
          continue;
        }
        if (library.name().equals("nccl")) {
          try {
            loadNccl(sequence);
          } catch (LoadException e) {
            if (strict) {
              throw e;
            }
          }
          continue;
        }
        List<Path> files = new ArrayList<>(library.companions());
        files.add(0, library.file().get());
        for (Path file : files) {
          Libc.Opened opened = Libc.dlopen(file.toString(), Libc.RTLD_NOW | Libc.RTLD_GLOBAL);
          if (!opened.ok() && strict) {
            throw sequence.failure("dlopen(" + file + ") of " + library.name() + " (" + library.foundBy() + ": "
                + library.foundDetail() + ") failed: " + opened.error());
          }
        }
      }
    }
  }

  /**
   * Loads NCCL EP once per process, in the steps docs/runtime.md lists ("loadNcclEp()"); concurrent callers share one
   * attempt and its result, later callers get the same instance. A failed attempt is not remembered.
   *
   * @throws LoadException carrying the availability report, when any step fails, or when NCCL EP was already
   *     loaded in this process from a file this configuration does not select
   */
  public NcclEp loadNcclEp() {
    NativeAccess.check(TeRuntime.class.getModule());
    CompletableFuture<NcclEp> attempt;
    boolean mine = false;
    synchronized (ProcessState.LOADS) {
      attempt = ProcessState.ncclEp;
      if (attempt == null) {
        attempt = new CompletableFuture<>();
        ProcessState.ncclEp = attempt;
        ProcessState.ncclEpConfig = config;
        mine = true;
      }
    }
    if (mine) {
      try {
        attempt.complete(loadOnce());
      } catch (RuntimeException | Error e) {
        synchronized (ProcessState.LOADS) {
          ProcessState.ncclEp = null; // forgotten: the next call tries again
        }
        attempt.completeExceptionally(e);
      }
    }
    try {
      return sameOrRefuse(attempt.join());
    } catch (CompletionException e) {
      throw Libc.unexpected(e.getCause());
    }
  }

  /**
   * Loads, once per process, the {@code libnccl.so.2} the NCCL gate read, with RTLD_NOW | RTLD_GLOBAL
   * (docs/runtime.md, "loadNccl()"); its version is not gated here, only NCCL EP needs the minimum.
   *
   * @throws LoadException carrying the availability report, when no libnccl.so.2 loads
   */
  public Nccl loadNccl() {
    NativeAccess.check(TeRuntime.class.getModule());
    return loadNccl(new LoadSequence(config));
  }

  private static Nccl loadNccl(LoadSequence sequence) {
    synchronized (ProcessState.LOADS) {
      if (ProcessState.nccl == null) {
        LoadSequence.LoadedNccl loaded = sequence.nccl();
        ProcessState.nccl = new Nccl(loaded.version(), loaded.symbols());
      }
      return ProcessState.nccl;
    }
  }

  /**
   * Loads libtransformer_engine.so from the bundle, once per process, as TE's Python does (docs/runtime.md,
   * "loadTransformerEngine() and NCCL_EP_HOME"): TE's native world and NCCL first, {@code NCCL_EP_HOME} set (a user's
   * value wins), then TE with RTLD_LAZY | RTLD_GLOBAL, by path, only if the path still names the file checked; a
   * BIND_NOW TE the load prediction ({@link NativeWorld#transformerEngine()}) says would not load is never opened.
   *
   * @throws LoadException carrying the availability report, when there is no TE library, no NCCL, an import of a
   *     BIND_NOW TE would not bind (the message names the symbol, the library it was needed from and the file that
   *     lacks it), or dlopen fails
   */
  public TransformerEngine loadTransformerEngine() {
    NativeAccess.check(TeRuntime.class.getModule());
    LoadSequence sequence = new LoadSequence(config);
    Path te = sequence.transformerEngineFile();
    synchronized (ProcessState.LOADS) {
      TransformerEngine loaded = ProcessState.transformerEngine;
      if (loaded != null) {
        if (!WheelLibPaths.sameFile(loaded.file(), te)) {
          throw sequence.failure("libtransformer_engine.so is already loaded in this process from " + loaded.file()
              + "; this configuration selects " + te);
        }
        return loaded;
      }
      Nccl[] boundNccl = new Nccl[1];
      LoadedLibrary library = sequence.transformerEngine(te, world -> {
        loadWorld(world, false, sequence);
        boundNccl[0] = loadNccl(sequence);
      });
      ProcessState.transformerEngine = new TransformerEngine(library, boundNccl[0], this::availability);
      return ProcessState.transformerEngine;
    }
  }

  private NcclEp loadOnce() {
    LoadSequence sequence = new LoadSequence(config);
    Availability availability = sequence.resolution().availability();
    if (!availability.available()) {
      throw sequence.failure("NCCL EP is not available: " + availability.reason());
    }
    Nccl boundNccl = loadNccl(sequence);
    Optional<EnvironmentSetting> home = sequence.prepareJit(
        sequence.resolution().bundle().flatMap(Resolver.Bundle::ncclEpHome),
        Discovery.sitePackages(availability.bundle()).folder());
    if (boundNccl.version().compareTo(config.effectiveMinimumNcclVersion()) < 0) {
      throw sequence.failure("the libnccl.so.2 loaded (" + boundNccl.file() + ") reports " + boundNccl.version()
          + ", older than the " + config.effectiveMinimumNcclVersion() + " NCCL EP needs, although the NCCL gate read "
          + availability.nccl().version().map(Object::toString).orElse("another version") + ": it changed in between");
    }
    LoadSequence.LoadedNcclEp loaded = sequence.ncclEp(availability);
    return new NcclEp(new LoadedLibrary(loaded.symbols(), loaded.mappedFrom(), home), boundNccl, loaded.version(),
        availability);
  }

  /** The process's NCCL EP, unless this configuration selects another file. */
  private NcclEp sameOrRefuse(NcclEp ep) {
    Config loadedWith;
    synchronized (ProcessState.LOADS) {
      loadedWith = ProcessState.ncclEpConfig;
    }
    if (loadedWith == config || config.equals(loadedWith)) {
      return ep;
    }
    Availability availability = Resolver.resolve(config).availability();
    if (availability.chosenFile().filter(f -> WheelLibPaths.sameFile(f, ep.file())).isPresent()) {
      return ep;
    }
    throw new LoadException("NCCL EP is already loaded in this process from " + ep.file() + ", and one process"
        + " holds one NCCL EP; this configuration " + availability.chosenFile().map(f -> "selects " + f)
            .orElse("finds none (" + availability.reason() + ")"), availability);
  }

  /** Configuration; anything not given falls back to its system property, then to the default. */
  public static final class Builder {
    private Path wheelLib;
    private Integer ncclEpMajor;
    private Path ncclLibrary;
    private NcclVersion minimumNcclVersion;
    private Path cacheFolder;
    private String resourceFolder;
    private ClassLoader classLoader;
    private Boolean verifyDigests;

    private Builder() {}

    /** The wheel_lib folder; first in the search, before {@code te.wheelLib} and {@code TE_WHEEL_LIB}. */
    public Builder wheelLib(Path folder) {
      this.wheelLib = Objects.requireNonNull(folder, "folder");
      return this;
    }

    /**
     * The NCCL EP major to accept when the bundle has no manifest saying (property {@code te.ncclEpMajor};
     * default 0).
     */
    public Builder ncclEpMajor(int major) {
      if (major < 0) {
        throw new IllegalArgumentException("an NCCL EP major is >= 0, not " + major);
      }
      this.ncclEpMajor = major;
      return this;
    }

    /** A libnccl.so.2 to preload with RTLD_GLOBAL (property {@code te.ncclLibrary}; default: the loader's search). */
    public Builder ncclLibrary(Path file) {
      this.ncclLibrary = Objects.requireNonNull(file, "file");
      return this;
    }

    /** The lowest NCCL accepted (property {@code te.minimumNcclVersion}; default 2.30.4). */
    public Builder minimumNcclVersion(NcclVersion version) {
      this.minimumNcclVersion = Objects.requireNonNull(version, "version");
      return this;
    }

    /** Where class-path bundles are extracted (property {@code te.cacheDir}; default ~/.cache/te-wheel). */
    public Builder cacheFolder(Path folder) {
      this.cacheFolder = Objects.requireNonNull(folder, "folder");
      return this;
    }

    /** The class-path resource folder of a packaged wheel_lib (default {@code META-INF/te-wheel/wheel_lib}). */
    public Builder classpathBundle(String resourceFolder) {
      this.resourceFolder = Objects.requireNonNull(resourceFolder, "resourceFolder");
      return this;
    }

    /** The class loader to find a class-path bundle with (default: the thread's context class loader). */
    public Builder classLoader(ClassLoader loader) {
      this.classLoader = Objects.requireNonNull(loader, "loader");
      return this;
    }

    /**
     * Whether to check the SHA-256 of a wheel_lib folder's files against its manifest (property
     * {@code te.verifyDigests}; default false: sizes only). Extracted class-path bundles are always hashed.
     */
    public Builder verifyDigests(boolean verify) {
      this.verifyDigests = verify;
      return this;
    }

    public TeRuntime build() {
      return new TeRuntime(new Config(wheelLib, ncclEpMajor, ncclLibrary, minimumNcclVersion, cacheFolder,
          resourceFolder, classLoader, verifyDigests));
    }
  }
}
