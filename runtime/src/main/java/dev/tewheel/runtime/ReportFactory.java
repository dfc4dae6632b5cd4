package dev.tewheel.runtime;

import dev.tewheel.runtime.internal.Reports;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The report types' constructors, handed to te-runtime's internal package once (see {@link Reports}). */
final class ReportFactory implements Reports.Factory {
  static {
    Reports.register(new ReportFactory());
  }

  private ReportFactory() {}

  @Override
  public SearchStep searchStep(String source, String value, SearchStep.Outcome outcome, String detail) {
    return new SearchStepRecord(source, value, outcome, detail);
  }

  @Override
  public Availability availability(boolean available, String reason, List<SearchStep> searched,
      Optional<Path> bundle, int requiredMajor, Provenance requiredMajorSource,
      List<dev.tewheel.bundle.ncclep.NcclEpCandidate> candidates,
      Optional<dev.tewheel.bundle.ncclep.NcclEpCandidate> chosen, Optional<Path> loadedElsewhere,
      List<Dependency> dependencies, NcclStatus nccl) {
    return new AvailabilityRecord(available, reason, searched, bundle, requiredMajor, requiredMajorSource,
        candidates.stream().map(NcclEpCandidateRecord::of).toList(), chosen.map(NcclEpCandidateRecord::of),
        loadedElsewhere, dependencies, nccl);
  }

  @Override
  public Provenance provenance(Provenance.Origin origin, String detail) {
    return new ProvenanceRecord(origin, detail);
  }

  @Override
  public Dependency dependency(String name, String neededBy, Optional<Path> file, Dependency.FoundBy foundBy,
      String foundDetail, List<String> missingVersions) {
    return new DependencyRecord(name, neededBy, file, foundBy, foundDetail, missingVersions);
  }

  @Override
  public NcclStatus ncclStatus(Optional<Path> library, NcclStatus.Source source, Optional<NcclVersion> version,
      NcclVersion minimum, boolean ok, String detail) {
    return new NcclStatusRecord(library, source, version, minimum, ok, detail);
  }

  @Override
  public EnvironmentSetting environmentSetting(String name, String value, boolean setByRuntime, String proposed) {
    return new EnvironmentSettingRecord(name, value, setByRuntime, proposed);
  }

  @Override
  public NativeWorld nativeWorld(List<NativeLibrary> libraries, Optional<Path> sitePackages,
      String sitePackagesSource, boolean cudaToolkit, Optional<Integer> cudaVariant, String cudaVariantSource,
      List<String> warnings, List<String> problems, Optional<LoadPrediction> transformerEngine) {
    return new NativeWorldRecord(libraries, sitePackages, sitePackagesSource, cudaToolkit, cudaVariant,
        cudaVariantSource, warnings, problems, transformerEngine);
  }

  @Override
  public NativeLibrary nativeLibrary(String name, Optional<Path> file, List<Path> companions,
      Optional<String> soname, Optional<String> version, String versionSource, NativeLibrary.FoundBy foundBy,
      String foundDetail, List<Path> mapped, Optional<String> problem) {
    return new NativeLibraryRecord(name, file, companions, soname, version, versionSource, foundBy, foundDetail,
        mapped, problem);
  }

  @Override
  public LoadPrediction loadPrediction(String library, Path file, boolean bindNow, List<String> unresolved,
      List<String> missingVersions, List<String> unchecked, String detail) {
    return new LoadPredictionRecord(library, file, bindNow, unresolved, missingVersions, unchecked, detail);
  }

  @Override
  public JitPreflight jitPreflight(Optional<Path> nvcc, String nvccSource, Optional<String> nvccVersion,
      Optional<Path> sourceDir, String sourceDirSource, Optional<Path> ncclInclude, String ncclIncludeSource,
      Optional<NcclVersion> ncclHeaderVersion, Optional<NcclVersion> ncclLoadedVersion, Optional<Path> cudaInclude,
      String cudaIncludeSource, boolean cccl, Path cacheDir, String cacheDirSource, List<String> cacheRefused,
      List<EnvironmentSetting> environment, List<String> missing, String verdict) {
    return new JitPreflightRecord(nvcc, nvccSource, nvccVersion, sourceDir, sourceDirSource, ncclInclude,
        ncclIncludeSource, ncclHeaderVersion, ncclLoadedVersion, cudaInclude, cudaIncludeSource, cccl, cacheDir,
        cacheDirSource, cacheRefused, environment, missing, verdict);
  }

  @Override
  public UnresolvedSymbolException unresolvedSymbol(String symbol, String library) {
    return new UnresolvedSymbolException(symbol, library);
  }
}
