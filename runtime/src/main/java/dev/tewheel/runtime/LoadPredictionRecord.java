package dev.tewheel.runtime;

import java.nio.file.Path;
import java.util.List;

/** {@link LoadPrediction}'s value. Package-private, so its constructor is no part of the API. */
record LoadPredictionRecord(String library, Path file, boolean bindNow, List<String> unresolved,
    List<String> missingVersions, List<String> unchecked, String detail) implements LoadPrediction {
  LoadPredictionRecord {
    unresolved = List.copyOf(unresolved);
    missingVersions = List.copyOf(missingVersions);
    unchecked = List.copyOf(unchecked);
  }
}
