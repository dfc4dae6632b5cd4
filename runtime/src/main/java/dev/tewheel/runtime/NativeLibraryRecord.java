package dev.tewheel.runtime;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** {@link NativeLibrary}'s value. Package-private, so its constructor is no part of the API. */
record NativeLibraryRecord(String name, Optional<Path> file, List<Path> companions, Optional<String> soname,
    Optional<String> version, String versionSource, FoundBy foundBy, String foundDetail, List<Path> mapped,
    Optional<String> problem) implements NativeLibrary {
  NativeLibraryRecord {
    companions = List.copyOf(companions);
    mapped = List.copyOf(mapped);
  }
}
