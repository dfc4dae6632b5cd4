package dev.tewheel.runtime.internal.load;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.bundle.ncclep.NcclEpFunctions;
import dev.tewheel.bundle.ncclep.NcclEpLibraryName;
import dev.tewheel.bundle.ncclep.NcclEpVersion;
import dev.tewheel.runtime.error.LoadException;
import dev.tewheel.runtime.internal.ffm.Libc;
import dev.tewheel.runtime.internal.ffm.Symbols;
import dev.tewheel.runtime.internal.ffm.VersionGetter;
import dev.tewheel.runtime.internal.host.LinkerHost;
import dev.tewheel.runtime.internal.host.PinnedLibrary;
import dev.tewheel.runtime.internal.search.Config;
import dev.tewheel.runtime.internal.search.Discovery;
import dev.tewheel.runtime.internal.search.JitCheck;
import dev.tewheel.runtime.internal.search.NcclGate;
import dev.tewheel.runtime.internal.search.Resolver;
import dev.tewheel.runtime.report.Availability;
import dev.tewheel.runtime.report.EnvironmentSetting;
import dev.tewheel.runtime.report.LoadPrediction;
import dev.tewheel.runtime.report.NativeWorld;
import dev.tewheel.runtime.report.NcclEpCandidate;
import dev.tewheel.runtime.report.NcclStatus;
import dev.tewheel.runtime.report.NcclVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One load by te-runtime (NCCL, NCCL EP or TE), with the state of that attempt: the search made once, the report
 * resolved once and only when needed (a failure carries it without resolving again), and the steps the loads share,
 * each written once: the NCCL gate's copy opened on one descriptor, {@code NCCL_EP_HOME} and the JIT's variables,
 * and the open-check-dlopen-recheck of a pinned file. {@code TeRuntime} keeps only what dlopen makes process-wide.
 */
public final class LoadSequence {
  /** The first library a problem sentence names. */
  private static final Pattern LIBRARY = Pattern.compile("(lib[A-Za-z_]+)");
  private final Config config;
  private Resolver.Located located;
  private Resolver.Resolution resolution;

  public LoadSequence(Config config) {
    this.config = Objects.requireNonNull(config);
  }

  /** The bundle search, made once for this attempt. */
  public Resolver.Located located() {
    if (located == null) {
      located = Resolver.locate(config);
    }
    return located;
  }

  /** The availability rule over {@link #located()}, resolved once for this attempt. */
  public Resolver.Resolution resolution() {
    if (resolution == null) {
      resolution = Resolver.resolve(config, located());
    }
    return resolution;
  }

  /** A failed step: its sentence, with this attempt's report. */
  public LoadException failure(String message) {
    return new LoadException(message, resolution().availability());
  }

  public LoadException failure(String message, Throwable cause) {
    return new LoadException(message, resolution().availability(), cause);
  }

  /** The libnccl.so.2 loaded, and its functions. */
  public record LoadedNccl(NcclVersion version, Symbols symbols) {}

  /** Loads the {@code libnccl.so.2} the NCCL gate reads, as {@code TeRuntime.loadNccl()} says. */
  public LoadedNccl nccl() {
    NcclStatus gate = NcclGate.probe(Discovery.nccl(config, located().bundle().map(Resolver.Bundle::folder)),
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
    Path mapped = opened(opened, file);
    // The version of the bytes loaded, which is what the gate read unless the file changed in between.
    Optional<NcclVersion> version;
    try {
      version = NcclGate.version(opened.handle(), mapped);
    } catch (IllegalStateException e) {
      throw failure(e.getMessage());
    }
    return new LoadedNccl(version.orElseThrow(() -> failure(mapped + " defines no ncclGetVersion now, although the"
        + " NCCL gate read one: it changed in between")), new Symbols(opened.handle(), mapped));
  }

  /** dlopen's answer, or a failure with dlerror's text; the file the dynamic linker mapped (dlinfo). */
  private Path opened(Libc.Opened opened, Path file) {
    if (!opened.ok()) {
      throw failure("dlopen(" + file + ") failed: " + opened.error());
    }
    return LinkerHost.mappedFile(opened.handle()).orElse(file);
  }

  /**
   * What NCCL EP's JIT needs before NCCL EP or TE loads: {@code NCCL_EP_HOME} set (overwrite 0) to the bundle's
   * folder of shipped headers, as TE's provider does (without it the JIT looks at the build machine's path in
   * config.h), and the JIT's own variables ({@link JitCheck#apply}).
   */
  public Optional<EnvironmentSetting> prepareJit(Optional<Path> ncclEpHome, Optional<Path> sitePackages) {
    Optional<EnvironmentSetting> home = ncclEpHome.isEmpty() ? Optional.empty()
        : Optional.of(JitCheck.set(Config.NCCL_EP_HOME_ENV, ncclEpHome.get().toString(), false));
    try {
      JitCheck.apply(sitePackages);
    } catch (JitCheck.UnsafeCache e) {
      throw failure(e.getMessage());
    }
    return home;
  }

  /** NCCL EP loaded: its functions and mapped file, and what {@code ncclEpGetVersion} reported. */
  public record LoadedNcclEp(Symbols symbols, Path mappedFrom, NcclVersion version) {}

  /**
   * The NCCL EP steps of {@code TeRuntime.loadNcclEp()} from the descriptor on (RTLD_NOW | RTLD_LOCAL); a library
   * that fails a check after dlopen is unloaded.
   */
  public LoadedNcclEp ncclEp(Availability availability) {
    NcclEpCandidate chosen = availability.chosen().orElseThrow();
    PinnedLibrary pinned;
    Libc.Opened opened;
    try {
      pinned = LoadCheck.ncclEp(resolution().bundle().orElseThrow(), chosen.file(), availability.requiredMajor(),
          config);
    } catch (IOException e) {
      throw failure(e.getMessage(), e);
    }
    try {
      opened = pinned.load(Libc.RTLD_NOW | Libc.RTLD_LOCAL);
    } catch (IOException e) {
      pinned.close();
      throw failure(e.getMessage(), e);
    }
    boolean keep = false;
    try {
      Path mapped = opened(opened, chosen.file());
      if (!WheelLibPaths.sameFile(mapped, chosen.file())) {
        throw failure(Resolver.alreadyLoaded(chosen.soname(), chosen.file(), mapped));
      }
      Symbols symbols = new Symbols(opened.handle(), chosen.file());
      List<String> missing = NcclEpFunctions.REQUIRED.stream().filter(name -> !symbols.defines(name)).toList();
      if (!missing.isEmpty()) {
        throw failure(chosen.file() + " does not export " + String.join(", ", missing)
            + ", which TE's provider resolves");
      }
      NcclVersion version = ncclEpVersion(symbols, chosen.file());
      int sonameMajor = NcclEpLibraryName.sonameMajor(chosen.soname().orElseThrow()).orElseThrow();
      if (version.major() != sonameMajor) {
        throw failure(chosen.file() + " has SONAME " + chosen.soname().get() + " but ncclEpGetVersion reports "
            + version + "; te-runtime refuses a library whose version contradicts its SONAME");
      }
      keep = true;
      return new LoadedNcclEp(symbols, mapped, version);
    } finally {
      if (!keep && opened.ok()) {
        pinned.unload(opened);
      }
      pinned.close(); // the descriptor stays open while the library is mapped through its name
    }
  }

  private NcclVersion ncclEpVersion(Symbols symbols, Path file) {
    int code;
    try {
      code = VersionGetter.read(symbols.address("ncclEpGetVersion"), 0, "ncclEpGetVersion of " + file);
    } catch (IllegalStateException e) {
      throw failure(e.getMessage());
    }
    try {
      return Resolver.version(NcclEpVersion.fromCode(code));
    } catch (IllegalArgumentException e) {
      throw failure("ncclEpGetVersion of " + file + " reported " + code
          + ", which is no MAJOR*10000 + MINOR*100 + PATCH", e);
    }
  }

  /**
   * libtransformer_engine.so of the bundle, before anything is loaded: the search found a sound bundle whose
   * manifest, with {@code te.verifyDigests}, lists TE, and the file is there.
   */
  public Path transformerEngineFile() {
    Resolver.Located found = located();
    if (found.problem().isPresent() || found.bundle().isEmpty()) {
      throw failure("libtransformer_engine.so cannot be loaded: " + found.problem().orElse("no bundle found"));
    }
    Resolver.Bundle bundle = found.bundle().get();
    if (config.effectiveVerifyDigests() && bundle.manifest().isPresent()
        && bundle.manifest().get().transformerEngineLibrary().isEmpty()) {
      throw failure("the manifest of " + bundle.folder() + " does not list libtransformer_engine.so, so it"
          + " does not vouch for " + bundle.transformerEngineLibrary().map(Path::toString).orElse("one") + ", and with "
          + Config.VERIFY_DIGESTS_PROPERTY + "=true te-runtime loads only libraries the manifest lists (and whose"
          + " SHA-256 matches). Rebuild the bundle with te:assemble-wheel-lib, which lists it, or set "
          + Config.VERIFY_DIGESTS_PROPERTY + "=false");
    }
    Optional<Path> te = bundle.transformerEngineLibrary();
    if (te.isEmpty() || !Files.isRegularFile(te.get())) {
      throw failure("the bundle " + bundle.folder() + " has no libtransformer_engine.so"
          + te.map(p -> " (looked for " + p + ")").orElse(" (it is an NCCL EP home, found through NCCL_EP_HOME)"));
    }
    return te.get();
  }

  /**
   * Loads TE ({@link #transformerEngineFile()}) as {@code TeRuntime.loadTransformerEngine()} says: refused when
   * another copy is mapped or its load prediction fails; opened once and checked ({@link LoadCheck}); then
   * {@code dependencies} load TE's world and NCCL, then {@link #prepareJit}, then TE itself by path.
   */
  public LoadedLibrary transformerEngine(Path te, Consumer<NativeWorld> dependencies) {
    Optional<Path> other = LinkerHost.loadedElsewhere(te.getFileName().toString(), te);
    if (other.isPresent()) {
      throw failure(te.getFileName() + " is already loaded by another component from " + other.get()
          + "; loading " + te + " beside it would give this process two copies");
    }
    Resolver.Bundle bundle = located().bundle().orElseThrow();
    NativeWorld world = Discovery.discover(config, Optional.of(bundle.folder()), Optional.of(te));
    // Predicted before anything is loaded: a BIND_NOW TE whose imports would not bind is never opened.
    Optional<LoadPrediction> prediction = world.transformerEngine();
    if (prediction.isPresent() && !prediction.get().loads()) {
      throw failure(prediction.get().detail());
    }
    try (PinnedLibrary pinned = LoadCheck.transformerEngine(bundle, te, config)) {
      dependencies.accept(world);
      Optional<EnvironmentSetting> home = prepareJit(bundle.ncclEpHome(), world.sitePackages());
      if (!pinned.isNamedBy(te)) {
        throw failure(te + " was replaced by another file after te-runtime checked it; te-runtime loads only"
            + " what it checked. Find out who else changes " + te.getParent());
      }
      Libc.Opened opened = Libc.dlopen(te.toString(), Libc.RTLD_LAZY | Libc.RTLD_GLOBAL);
      if (!opened.ok()) {
        throw failure("dlopen(" + te + ") failed: " + opened.error() + hint(world, opened.error()));
      }
      if (!pinned.isMappedBy(opened.handle())) {
        // Too late to keep its constructors from running, but not to stop here; the library stays mapped.
        throw failure("the dynamic linker mapped another file than the " + te + " te-runtime checked: it was"
            + " replaced between the check and dlopen. Find out who else changes " + te.getParent());
      }
      return new LoadedLibrary(new Symbols(opened.handle(), te), opened(opened, te), home);
    } catch (IOException e) {
      throw failure(e.getMessage());
    }
  }

  /** The problem of TE's world whose library ("... libcudnn must come ...") dlerror's text names, as a sentence. */
  private static String hint(NativeWorld world, String error) {
    for (String problem : world.problems()) {
      Matcher library = LIBRARY.matcher(problem);
      if (library.find() && error.contains(library.group(1))) {
        return ". " + problem;
      }
    }
    return "";
  }
}
