package dev.tewheel.loader;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where a DT_NEEDED entry binds, and why.
 *
 * @param name the DT_NEEDED name ({@code libcuda.so.1})
 * @param neededBy the SONAME (else file name) of the object that needs it
 * @param file the file bound; empty when the search finds none
 * @param foundBy the step of the search that bound it, or {@link FoundBy#NOT_FOUND}
 * @param detail why not, when a file was there ({@code /x/libcuda.so.1 (RPATH) is not a valid ELF object}); else
 *     empty
 * @param missingVersions versions the needing object asks of it (DT_VERNEED) that the file does not define
 */
public record Binding(String name, String neededBy, Optional<Path> file, FoundBy foundBy, String detail,
    List<String> missingVersions) {
  public Binding {
    missingVersions = List.copyOf(missingVersions);
  }

  /** Whether dlopen would bind it: a file was found and it defines every version asked of it. */
  public boolean found() {
    return file.isPresent() && missingVersions.isEmpty();
  }
}
