package dev.tewheel.runtime;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** {@link JitPreflight}'s value. Package-private, so its constructor is no part of the API. */
record JitPreflightRecord(Optional<Path> nvcc, String nvccSource, Optional<String> nvccVersion,
    Optional<Path> sourceDir, String sourceDirSource, Optional<Path> ncclInclude, String ncclIncludeSource,
    Optional<NcclVersion> ncclHeaderVersion, Optional<NcclVersion> ncclLoadedVersion, Optional<Path> cudaInclude,
    String cudaIncludeSource, boolean cccl, Path cacheDir, String cacheDirSource, List<String> cacheRefused,
    List<EnvironmentSetting> environment, List<String> missing, String verdict) implements JitPreflight {
  JitPreflightRecord {
    cacheRefused = List.copyOf(cacheRefused);
    environment = List.copyOf(environment);
    missing = List.copyOf(missing);
  }
}
