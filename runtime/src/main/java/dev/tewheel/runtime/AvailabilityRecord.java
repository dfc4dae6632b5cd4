package dev.tewheel.runtime;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** {@link Availability}'s value. Package-private, so its constructor is no part of the API. */
record AvailabilityRecord(boolean available, String reason, List<SearchStep> searched, Optional<Path> bundle,
    int requiredMajor, Provenance requiredMajorSource, List<NcclEpCandidate> candidates,
    Optional<NcclEpCandidate> chosen, Optional<Path> loadedElsewhere, List<Dependency> dependencies, NcclStatus nccl)
    implements Availability {
  AvailabilityRecord {
    searched = List.copyOf(searched);
    candidates = List.copyOf(candidates);
    dependencies = List.copyOf(dependencies);
  }
}
