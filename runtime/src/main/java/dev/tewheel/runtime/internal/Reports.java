package dev.tewheel.runtime.internal;

import dev.tewheel.bundle.ncclep.NcclEpCandidate;
import dev.tewheel.runtime.Availability;
import dev.tewheel.runtime.Dependency;
import dev.tewheel.runtime.EnvironmentSetting;
import dev.tewheel.runtime.JitPreflight;
import dev.tewheel.runtime.LoadPrediction;
import dev.tewheel.runtime.NativeLibrary;
import dev.tewheel.runtime.NativeWorld;
import dev.tewheel.runtime.NcclStatus;
import dev.tewheel.runtime.NcclVersion;
import dev.tewheel.runtime.Provenance;
import dev.tewheel.runtime.SearchStep;
import dev.tewheel.runtime.UnresolvedSymbolException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * How this package makes the public report types, whose constructors are not public (an application reads a
 * report; only te-runtime writes one). The public package hands its factory over once, when its class
 * {@code ReportFactory} is initialised; {@link #make()} initialises it (the JDK's SharedSecrets do the same).
 */
public final class Reports {
  private static volatile Factory factory;

  private Reports() {}

  /** The constructors of the public report types. */
  public interface Factory {
    SearchStep searchStep(String source, String value, SearchStep.Outcome outcome, String detail);

    /** Takes the bundle's verdicts, which it hands out in te-runtime's own type. */
    Availability availability(boolean available, String reason, List<SearchStep> searched, Optional<Path> bundle,
        int requiredMajor, Provenance requiredMajorSource, List<NcclEpCandidate> candidates,
        Optional<NcclEpCandidate> chosen, Optional<Path> loadedElsewhere, List<Dependency> dependencies,
        NcclStatus nccl);

    Provenance provenance(Provenance.Origin origin, String detail);

    Dependency dependency(String name, String neededBy, Optional<Path> file, Dependency.FoundBy foundBy,
        String foundDetail, List<String> missingVersions);

    NcclStatus ncclStatus(Optional<Path> library, NcclStatus.Source source, Optional<NcclVersion> version,
        NcclVersion minimum, boolean ok, String detail);

    EnvironmentSetting environmentSetting(String name, String value, boolean setByRuntime, String proposed);

    NativeWorld nativeWorld(List<NativeLibrary> libraries, Optional<Path> sitePackages, String sitePackagesSource,
        boolean cudaToolkit, Optional<Integer> cudaVariant, String cudaVariantSource, List<String> warnings,
        List<String> problems, Optional<LoadPrediction> transformerEngine);

    NativeLibrary nativeLibrary(String name, Optional<Path> file, List<Path> companions, Optional<String> soname,
        Optional<String> version, String versionSource, NativeLibrary.FoundBy foundBy, String foundDetail,
        List<Path> mapped, Optional<String> problem);

    LoadPrediction loadPrediction(String library, Path file, boolean bindNow, List<String> unresolved,
        List<String> missingVersions, List<String> unchecked, String detail);

    JitPreflight jitPreflight(Optional<Path> nvcc, String nvccSource, Optional<String> nvccVersion,
        Optional<Path> sourceDir, String sourceDirSource, Optional<Path> ncclInclude, String ncclIncludeSource,
        Optional<NcclVersion> ncclHeaderVersion, Optional<NcclVersion> ncclLoadedVersion, Optional<Path> cudaInclude,
        String cudaIncludeSource, boolean cccl, Path cacheDir, String cacheDirSource, List<String> cacheRefused,
        List<EnvironmentSetting> environment, List<String> missing, String verdict);

    UnresolvedSymbolException unresolvedSymbol(String symbol, String library);
  }

  /** Called once, by the public package's factory class; a second or foreign factory is refused. */
  public static void register(Factory made) {
    if (made.getClass().getClassLoader() != Reports.class.getClassLoader()
        || !made.getClass().getName().equals("dev.tewheel.runtime.ReportFactory") || factory != null) {
      throw new IllegalStateException("te-runtime's report factory is registered once, by te-runtime");
    }
    factory = made;
  }

  /** The factory. */
  public static Factory make() {
    Factory made = factory;
    if (made == null) {
      try {
        Class.forName("dev.tewheel.runtime.ReportFactory", true, Reports.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException("te-runtime is incomplete: dev.tewheel.runtime.ReportFactory is missing", e);
      }
      made = factory;
    }
    return made;
  }
}
