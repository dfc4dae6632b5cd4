package dev.tewheel.runtime;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * A DT_NEEDED entry of a library, and where the dynamic linker would take it from if the library were opened now.
 *
 * @param name the DT_NEEDED name, e.g. {@code libcuda.so.1}
 * @param neededBy the SONAME (else file name) of the library that needs it
 * @param file the file that would be bound; empty when the linker's search finds none
 * @param foundBy how: {@code already loaded}, {@code preloaded by te-runtime}, {@code LD_LIBRARY_PATH},
 *     {@code RPATH}, {@code RUNPATH}, {@code /etc/ld.so.cache} or {@code default folder}; {@code not found}
 */
public record Dependency(String name, String neededBy, Optional<Path> file, String foundBy) {
  public Dependency {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(neededBy, "neededBy");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(foundBy, "foundBy");
  }

  public boolean found() {
    return file.isPresent();
  }
}
