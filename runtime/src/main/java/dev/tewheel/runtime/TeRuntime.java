package dev.tewheel.runtime;


import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.bundle.ncclep.NcclEpLibraryName;
import dev.tewheel.bundle.ncclep.NcclEpVersion;
import dev.tewheel.loader.Environment;
import dev.tewheel.runtime.internal.Config;
import dev.tewheel.runtime.internal.Discovery;
import dev.tewheel.runtime.internal.JitCheck;
import dev.tewheel.runtime.internal.Libc;
import dev.tewheel.runtime.internal.LoadCheck;
import dev.tewheel.runtime.internal.NativeAccess;
import dev.tewheel.runtime.internal.NcclGate;
import dev.tewheel.runtime.internal.PinnedLibrary;
import dev.tewheel.runtime.internal.Resolver;
import dev.tewheel.runtime.internal.Symbols;
import dev.tewheel.runtime.internal.VersionGetter;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
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
    if (!world.problems().isEmpty()) {
      throw failure("TE's native libraries cannot all be loaded: " + String.join("; ", world.problems()));
    }
    loadWorld(world, true);
    return nativeWorld();
  }

  /** Loads the world's found libraries in order; strict: a dlopen failure throws, else it is left to TE's load. */
  private void loadWorld(NativeWorld world, boolean strict) {
    synchronized (ProcessState.LOADS) {
      for (NativeLibrary library : world.libraries()) {
        if (library.file().isEmpty() || library.foundBy() == NativeLibrary.FoundBy.ALREADY_LOADED) {
          continue;
        }
        if (library.name().equals("nccl")) {
          try {
            loadNccl();
          } catch (LoadException e) {
            if (strict) {
              throw e;
            }
          }
          continue;
        }
        List<Path> files = new java.util.ArrayList<>();
        files.add(library.file().get());
        files.addAll(library.companions());
        for (Path file : files) {
          Libc.Opened opened = Libc.dlopen(file.toString(), Libc.RTLD_NOW | Libc.RTLD_GLOBAL);
          if (!opened.ok() && strict) {
            throw failure("dlopen(" + file + ") of " + library.name() + " (" + library.foundBy() + ": "
                + library.foundDetail() + ") failed: " + opened.error());
          }
        }
      }
    }
  }

  /**
   * Loads NCCL EP once per process; concurrent callers share one attempt and its result, later callers get the
   * same instance. A failed attempt is not remembered: the next call tries again.
   *
   * <p>Steps: the availability rule; {@link #loadNccl()} (the libnccl.so.2 the NCCL gate checked, RTLD_GLOBAL, as
   * nccl4py does), so NCCL EP's DT_NEEDED resolves to it; the chosen file opened once and judged again on that
   * descriptor (the selection rule, the manifest's size and, with {@code te.verifyDigests}, SHA-256), then dlopen
   * through it ({@code /proc/self/fd/N}), whose failure carries dlerror's text; a check of the file the dynamic linker
   * really mapped (dlinfo); dlsym of every function in {@link NcclEp#REQUIRED_FUNCTIONS}; {@code ncclEpGetVersion},
   * whose major must be the SONAME's.
   *
   * @throws LoadException carrying the availability report, when any step fails, or when NCCL EP was already
   *     loaded in this process from a file this configuration does not select
   */
  public NcclEp loadNcclEp() {
    NativeAccess.check(TeRuntime.class.getModule());
    NcclEp ep;
    CompletableFuture<NcclEp> future = null;
    boolean mine = false;
    synchronized (ProcessState.LOADS) {
      ep = ProcessState.ncclEp;
      if (ep == null) {
        if (ProcessState.pendingNcclEp == null) {
          ProcessState.pendingNcclEp = new CompletableFuture<>();
          mine = true;
        }
        future = ProcessState.pendingNcclEp;
      }
    }
    if (ep != null) {
      return sameOrRefuse(ep);
    }
    if (mine) {
      try {
        NcclEp result = loadOnce();
        NcclEp.publish(result);
        synchronized (ProcessState.LOADS) {
          ProcessState.ncclEp = result;
          ProcessState.pendingNcclEp = null;
        }
        future.complete(result);
      } catch (RuntimeException | Error e) {
        synchronized (ProcessState.LOADS) {
          ProcessState.pendingNcclEp = null;
        }
        future.completeExceptionally(e);
      }
    }
    try {
      ep = future.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      if (e.getCause() instanceof Error cause) {
        throw cause;
      }
      throw e;
    }
    return sameOrRefuse(ep);
  }

  /**
   * Loads {@code libnccl.so.2} once per process: the copy the NCCL gate read (one already mapped, the configured
   * file, or the one the loader's search finds), with RTLD_NOW | RTLD_GLOBAL, as TE's Python and nccl4py load it; a
   * file is opened once, its SONAME read and the library loaded through that descriptor, and the version reported
   * is the loaded copy's. Its version is not gated here: TE itself runs with any NCCL; only NCCL EP needs the
   * minimum.
   *
   * @throws LoadException carrying the availability report, when no libnccl.so.2 loads
   */
  public Nccl loadNccl() {
    NativeAccess.check(TeRuntime.class.getModule());
    synchronized (ProcessState.LOADS) {
      if (ProcessState.nccl != null) {
        return ProcessState.nccl;
      }
      NcclStatus gate = NcclGate.probe(
          Discovery.nccl(config, Resolver.locate(config).bundle().map(Resolver.Bundle::folder)),
          config.effectiveMinimumNcclVersion());
      if (gate.library().isEmpty() || gate.version().isEmpty()) {
        throw failure("libnccl.so.2 cannot be loaded: " + gate.detail());
      }
      Path file = gate.library().get();
      Libc.Opened opened;
      if (gate.source() == NcclStatus.Source.ALREADY_MAPPED) {
        // The copy another component mapped: taken by SONAME, never by a path that may name another file by now.
        opened = Libc.dlopen(NcclGate.SONAME, Libc.RTLD_NOW | Libc.RTLD_GLOBAL | Libc.RTLD_NOLOAD);
      } else {
        // Opened once; its SONAME and version are read from what is loaded through that descriptor.
        try (PinnedLibrary pinned = PinnedLibrary.open(file, true)) {
          Optional<String> soname = pinned.soname();
          if (!soname.equals(Optional.of(NcclGate.SONAME))) {
            throw failure(file + " has SONAME " + soname.orElse("(none)") + " now, not " + NcclGate.SONAME + " as when"
                + " the NCCL gate read it: it changed in between, and te-runtime loads only what it checked");
          }
          opened = pinned.load(Libc.RTLD_NOW | Libc.RTLD_GLOBAL);
        } catch (IOException e) {
          throw failure("libnccl.so.2 cannot be loaded: " + e.getMessage());
        }
      }
      if (!opened.ok()) {
        throw failure("dlopen(" + file + ") failed: " + opened.error());
      }
      Path mapped = Libc.mappedFile(opened.handle()).orElse(file);
      // The version of the bytes loaded, which is what the gate read unless the file changed in between.
      Optional<NcclVersion> version;
      try {
        version = NcclGate.version(opened.handle(), mapped);
      } catch (IllegalStateException e) {
        throw failure(e.getMessage());
      }
      if (version.isEmpty()) {
        throw failure(mapped + " defines no ncclGetVersion now, although the NCCL gate read one: it changed in"
            + " between");
      }
      ProcessState.nccl = new Nccl(version.get(), new Symbols(opened.handle(), mapped));
      return ProcessState.nccl;
    }
  }

  /**
   * Loads libtransformer_engine.so from the bundle, once per process, as TE's Python does: NCCL first
   * ({@link #loadNccl()}; TE NEEDS libnccl.so.2), then TE with RTLD_LAZY | RTLD_GLOBAL (BIND_NOW comes from the
   * library's own flag). Before that it sets {@code NCCL_EP_HOME} through libc's setenv with overwrite 0 (a user's
   * own value wins) to the bundle folder whose {@code include/nccl_ep/} holds the shipped JIT headers (the manifest
   * says which), as TE's provider does: without it NCCL EP's JIT would look for its headers at the build machine's
   * path compiled into config.h. The result reports what was set.
   *
   * <p>Before loading anything it predicts whether every symbol TE imports would bind to the libraries it would
   * bind to ({@link NativeWorld#transformerEngine()}); a BIND_NOW TE that would not load is never opened. The TE
   * file is opened once and checked against the manifest on that descriptor; TE itself is loaded by path (its
   * provider asks where it lives), so with {@code te.verifyDigests} its folder must be one no other user can change,
   * the path must still name the file checked just before dlopen, and the file mapped must be that one.
   *
   * @throws LoadException carrying the availability report, when there is no TE library, no NCCL, an import of a
   *     BIND_NOW TE would not bind (the message names the symbol, the library it was needed from and the file that
   *     lacks it), or dlopen fails
   */
  public TransformerEngine loadTransformerEngine() {
    NativeAccess.check(TeRuntime.class.getModule());
    Resolver.Located located = Resolver.locate(config);
    if (located.problem().isPresent() || located.bundle().isEmpty()) {
      throw failure("libtransformer_engine.so cannot be loaded: "
          + located.problem().orElse("no bundle found"));
    }
    Resolver.Bundle bundle = located.bundle().get();
    if (config.effectiveVerifyDigests() && bundle.manifest().isPresent()
        && bundle.manifest().get().transformerEngineLibrary().isEmpty()) {
      throw failure("the manifest of " + bundle.folder() + " does not list libtransformer_engine.so, so it does not"
          + " vouch for " + bundle.transformerEngineLibrary().map(Path::toString).orElse("one") + ", and with "
          + Config.VERIFY_DIGESTS_PROPERTY + "=true te-runtime loads only libraries the manifest lists (and whose"
          + " SHA-256 matches). Rebuild the bundle with te:assemble-wheel-lib, which lists it, or set "
          + Config.VERIFY_DIGESTS_PROPERTY + "=false");
    }
    Optional<Path> te = bundle.transformerEngineLibrary();
    if (te.isEmpty() || !Files.isRegularFile(te.get())) {
      throw failure("the bundle " + bundle.folder() + " has no libtransformer_engine.so"
          + te.map(p -> " (looked for " + p + ")").orElse(" (it is an NCCL EP home, found through NCCL_EP_HOME)"));
    }
    synchronized (ProcessState.LOADS) {
      if (ProcessState.transformerEngine != null) {
        if (!WheelLibPaths.sameFile(ProcessState.transformerEngine.file(), te.get())) {
          throw failure("libtransformer_engine.so is already loaded in this process from "
              + ProcessState.transformerEngine.file() + "; this configuration selects " + te.get());
        }
        return ProcessState.transformerEngine;
      }
      Optional<Path> other = Libc.loadedFile(te.get().getFileName().toString())
          .filter(p -> !WheelLibPaths.sameFile(p, te.get()));
      if (other.isPresent()) {
        throw failure(te.get().getFileName() + " is already loaded by another component from " + other.get()
            + "; loading " + te.get() + " beside it would give this process two copies");
      }
      NativeWorld world = Discovery.discover(config, Optional.of(bundle.folder()), te);
      // Predicted before anything is loaded: a BIND_NOW TE whose imports would not bind is never opened.
      Optional<LoadPrediction> prediction = world.transformerEngine();
      if (prediction.isPresent() && !prediction.get().loads()) {
        throw failure(prediction.get().detail());
      }
      // Opened once and checked on that descriptor before anything is loaded (LoadCheck says why TE itself is then
      // loaded by path).
      try (PinnedLibrary pinned = openTransformerEngine(bundle, te.get())) {
        loadWorld(world, false);
        Nccl boundNccl = loadNccl();
        Optional<EnvironmentSetting> home = bundle.ncclEpHome().map(TeRuntime::setNcclEpHome);
        try {
          JitCheck.apply(world.sitePackages());
        } catch (JitCheck.UnsafeCache e) {
          throw failure(e.getMessage());
        }
        if (!pinned.isNamedBy(te.get())) {
          throw failure(te.get() + " was replaced by another file after te-runtime checked it; te-runtime loads only"
              + " what it checked. Find out who else changes " + te.get().getParent());
        }
        Libc.Opened opened = Libc.dlopen(te.get().toString(), Libc.RTLD_LAZY | Libc.RTLD_GLOBAL);
        if (!opened.ok()) {
          String hint = world.problems().stream().filter(p -> opened.error().contains(firstWord(p)))
              .findFirst().map(p -> ". " + p).orElse("");
          throw failure("dlopen(" + te.get() + ") failed: " + opened.error() + hint);
        }
        if (!pinned.isMappedBy(opened.handle())) {
          // Too late to keep its constructors from running, but not to stop here; the library stays mapped.
          throw failure("the dynamic linker mapped another file than the " + te.get() + " te-runtime checked: it was"
              + " replaced between the check and dlopen. Find out who else changes " + te.get().getParent());
        }
        Path mapped = Libc.mappedFile(opened.handle()).orElse(te.get());
        ProcessState.transformerEngine = new TransformerEngine(
            new LoadedLibrary(new Symbols(opened.handle(), te.get()), mapped, home, boundNccl), this::availability);
        return ProcessState.transformerEngine;
      }
    }
  }

  private PinnedLibrary openTransformerEngine(Resolver.Bundle bundle, Path te) {
    try {
      return LoadCheck.transformerEngine(bundle, te, config);
    } catch (IOException e) {
      throw failure(e.getMessage());
    }
  }

  /** The library named at the start of a problem sentence ("... libcudnn must come ..."), for matching dlerror. */
  private static String firstWord(String problem) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(lib[A-Za-z_]+)").matcher(problem);
    return m.find() ? m.group(1) : "\0";
  }

  private static EnvironmentSetting setNcclEpHome(Path folder) {
    String name = Config.NCCL_EP_HOME_ENV;
    String proposed = folder.toString();
    String before = Libc.getenv(name);
    try {
      Libc.setenv(name, proposed, false);
    } catch (IOException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
    if (before == null) {
      Environment.recordSet(name, proposed);
    }
    String after = Objects.requireNonNullElse(Libc.getenv(name), proposed);
    return new EnvironmentSettingRecord(name, after, before == null || Environment.setByRuntime(name, before), proposed);
  }

  private NcclEp loadOnce() {
    Resolver.Resolution resolution = Resolver.resolve(config);
    Availability availability = resolution.availability();
    if (!availability.available()) {
      throw new LoadException("NCCL EP is not available: " + availability.reason(), availability);
    }
    NcclEpCandidate chosen = availability.chosen().orElseThrow();
    Nccl boundNccl;
    try {
      boundNccl = loadNccl();
    } catch (LoadException e) {
      throw new LoadException(e.getMessage(), availability);
    }
    // NCCL EP's JIT finds its headers through NCCL_EP_HOME, as it does when TE's provider loads it: without it the
    // JIT looks at the build machine's path in config.h (seen on the H200: dispatch fails, ncclInternalError).
    Optional<EnvironmentSetting> home = resolution.bundle().flatMap(Resolver.Bundle::ncclEpHome)
        .map(TeRuntime::setNcclEpHome);
    try {
      JitCheck.apply(Discovery.sitePackages(availability.bundle()).folder());
    } catch (JitCheck.UnsafeCache e) {
      throw new LoadException(e.getMessage(), availability);
    }
    if (boundNccl.version().compareTo(config.effectiveMinimumNcclVersion()) < 0) {
      throw new LoadException("the libnccl.so.2 loaded (" + boundNccl.file() + ") reports " + boundNccl.version()
          + ", older than the " + config.effectiveMinimumNcclVersion() + " NCCL EP needs, although the NCCL gate read "
          + availability.nccl().version().map(Object::toString).orElse("another version") + ": it changed in between",
          availability);
    }
    // Opened once and judged again on that descriptor; the dynamic linker maps what was judged.
    PinnedLibrary pinned;
    Libc.Opened opened;
    try {
      pinned = LoadCheck.ncclEp(resolution.bundle().orElseThrow(), chosen.file(), availability.requiredMajor(), config);
    } catch (IOException e) {
      throw new LoadException(e.getMessage(), availability, e);
    }
    try {
      opened = pinned.load(Libc.RTLD_NOW | Libc.RTLD_LOCAL);
    } catch (IOException e) {
      pinned.close();
      throw new LoadException(e.getMessage(), availability, e);
    }
    if (!opened.ok()) {
      pinned.close();
      throw new LoadException("dlopen(" + chosen.file() + ") failed: " + opened.error(), availability);
    }
    boolean keep = false;
    try {
      Path mapped = Libc.mappedFile(opened.handle()).orElse(chosen.file());
      if (!WheelLibPaths.sameFile(mapped, chosen.file())) {
        throw new LoadException(Resolver.alreadyLoaded(chosen.soname(), chosen.file(), mapped), availability);
      }
      Symbols symbols = new Symbols(opened.handle(), chosen.file());
      List<String> missing = NcclEp.REQUIRED_FUNCTIONS.stream().filter(name -> !symbols.defines(name)).toList();
      if (!missing.isEmpty()) {
        throw new LoadException(chosen.file() + " does not export " + String.join(", ", missing)
            + ", which TE's provider resolves", availability);
      }
      NcclVersion version = version(symbols, chosen, availability);
      int sonameMajor = NcclEpLibraryName.sonameMajor(chosen.soname().orElseThrow()).orElseThrow();
      if (version.major() != sonameMajor) {
        throw new LoadException(chosen.file() + " has SONAME " + chosen.soname().get() + " but ncclEpGetVersion"
            + " reports " + version + "; te-runtime refuses a library whose version contradicts its SONAME",
            availability);
      }
      keep = true;
      return new NcclEp(config, new LoadedLibrary(symbols, mapped, home, boundNccl), version,
          availability);
    } finally {
      if (!keep) {
        pinned.unload(opened);
      }
      pinned.close(); // the descriptor stays open while the library is mapped through its name
    }
  }

  private static NcclVersion version(Symbols symbols, NcclEpCandidate chosen, Availability availability) {
    MethodHandle getVersion = VersionGetter.at(symbols.address("ncclEpGetVersion"));
    int[] code = new int[1];
    int status;
    try {
      status = (int) getVersion.invokeExact(MemorySegment.ofArray(code));
    } catch (Throwable t) {
      throw new LoadException("ncclEpGetVersion of " + chosen.file() + " failed: " + t, availability, t);
    }
    if (status != 0 || code[0] < 0) {
      throw new LoadException("ncclEpGetVersion of " + chosen.file() + " returned status " + status, availability);
    }
    try {
      return NcclVersion.of(NcclEpVersion.fromCode(code[0]));
    } catch (IllegalArgumentException e) {
      throw new LoadException("ncclEpGetVersion of " + chosen.file() + " reported " + code[0]
          + ", which is no MAJOR*10000 + MINOR*100 + PATCH", availability, e);
    }
  }

  /** The process's NCCL EP, unless this configuration selects another file. */
  private NcclEp sameOrRefuse(NcclEp ep) {
    if (ep.config() == config || ep.config().equals(config)) {
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

  private LoadException failure(String message) {
    return new LoadException(message, Resolver.resolve(config).availability());
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
