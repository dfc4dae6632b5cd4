package dev.tewheel.runtime;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** {@link NativeWorld}'s value. Package-private, so its constructor is no part of the API. */
record NativeWorldRecord(List<NativeLibrary> libraries, Optional<Path> sitePackages, String sitePackagesSource,
    boolean cudaToolkit, Optional<Integer> cudaVariant, String cudaVariantSource, List<String> warnings,
    List<String> problems, Optional<LoadPrediction> transformerEngine) implements NativeWorld {
  NativeWorldRecord {
    libraries = List.copyOf(libraries);
    warnings = List.copyOf(warnings);
    problems = List.copyOf(problems);
  }
}
