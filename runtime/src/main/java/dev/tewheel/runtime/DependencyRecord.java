package dev.tewheel.runtime;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** {@link Dependency}'s value. Package-private, so its constructor is no part of the API. */
record DependencyRecord(String name, String neededBy, Optional<Path> file, FoundBy foundBy, String foundDetail,
    List<String> missingVersions) implements Dependency {
  DependencyRecord {
    missingVersions = List.copyOf(missingVersions);
  }
}
