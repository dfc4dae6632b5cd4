package dev.tewheel.runtime;

import java.nio.file.Path;
import java.util.List;
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
 * @param missingVersions symbol versions the needing library asks of it (DT_VERNEED) that the file does not define,
 *     e.g. {@code GLIBC_2.38} on an older system: the dynamic linker refuses the load then too
 */
public record Dependency(String name, String neededBy, Optional<Path> file, String foundBy,
    List<String> missingVersions) {
  public Dependency {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(neededBy, "neededBy");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(foundBy, "foundBy");
    missingVersions = List.copyOf(missingVersions);
  }

  /** Whether dlopen would bind it: a file was found and it defines every version asked of it. */
  public boolean found() {
    return file.isPresent() && missingVersions.isEmpty();
  }

  /** Why dlopen would fail on this entry, for people; empty when {@link #found()}. */
  public String problem() {
    if (file.isEmpty()) {
      return name + " not found (needed by " + neededBy + ")";
    }
    if (!missingVersions.isEmpty()) {
      return name + " (" + file.get() + ") lacks " + String.join(", ", missingVersions) + ", which " + neededBy
          + " needs";
    }
    return "";
  }
}
