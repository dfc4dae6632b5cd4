package dev.tewheel.runtime.internal;

import dev.tewheel.bundle.ncclep.NcclEpCandidate;
import dev.tewheel.runtime.Availability;
import dev.tewheel.runtime.Dependency;
import dev.tewheel.runtime.EnvironmentSetting;
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

    Availability availability(boolean available, String reason, List<SearchStep> searched, Optional<Path> bundle,
        int requiredMajor, Provenance requiredMajorSource, List<NcclEpCandidate> candidates,
        Optional<NcclEpCandidate> chosen, Optional<Path> loadedElsewhere, List<Dependency> dependencies,
        NcclStatus nccl);

    Dependency dependency(String name, String neededBy, Optional<Path> file, Dependency.FoundBy foundBy,
        String foundDetail, List<String> missingVersions);

    NcclStatus ncclStatus(Optional<Path> library, NcclStatus.Source source, Optional<NcclVersion> version,
        NcclVersion minimum, boolean ok, String detail);

    EnvironmentSetting environmentSetting(String name, String value, boolean setByRuntime, String proposed);

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
