package dev.tewheel.runtime;

import dev.tewheel.bundle.ncclep.NcclEpCandidate;
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
    return new SearchStep(source, value, outcome, detail);
  }

  @Override
  public Availability availability(boolean available, String reason, List<SearchStep> searched,
      Optional<Path> bundle, int requiredMajor, Provenance requiredMajorSource, List<NcclEpCandidate> candidates,
      Optional<NcclEpCandidate> chosen, Optional<Path> loadedElsewhere, List<Dependency> dependencies,
      NcclStatus nccl) {
    return new Availability(available, reason, searched, bundle, requiredMajor, requiredMajorSource, candidates,
        chosen, loadedElsewhere, dependencies, nccl);
  }

  @Override
  public Dependency dependency(String name, String neededBy, Optional<Path> file, Dependency.FoundBy foundBy,
      String foundDetail, List<String> missingVersions) {
    return new Dependency(name, neededBy, file, foundBy, foundDetail, missingVersions);
  }

  @Override
  public NcclStatus ncclStatus(Optional<Path> library, NcclStatus.Source source, Optional<NcclVersion> version,
      NcclVersion minimum, boolean ok, String detail) {
    return new NcclStatus(library, source, version, minimum, ok, detail);
  }

  @Override
  public EnvironmentSetting environmentSetting(String name, String value, boolean setByRuntime, String proposed) {
    return new EnvironmentSetting(name, value, setByRuntime, proposed);
  }

  @Override
  public UnresolvedSymbolException unresolvedSymbol(String symbol, String library) {
    return new UnresolvedSymbolException(symbol, library);
  }
}
