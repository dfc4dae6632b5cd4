package dev.tewheel.runtime.report;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A DT_NEEDED entry of a library, and where the dynamic linker would take it from if the library were opened now.
 * te-runtime makes it; an application reads it.
 *
 * @param name the DT_NEEDED name, e.g. {@code libcuda.so.1}.
 * @param neededBy the SONAME (else file name) of the library that needs it.
 * @param file the file that would be bound; empty when the linker's search finds none.
 * @param foundBy which step of the linker's search bound it, or {@link FoundBy#NOT_FOUND}.
 * @param foundDetail why it was not found when a file was there, e.g. {@code /x/libcuda.so.1 (RPATH) is not a valid
 *     ELF object}; else empty.
 * @param missingVersions symbol versions the needing library asks of it (DT_VERNEED) that the file does not define,
 *     e.g. {@code GLIBC_2.38} on an older system: the dynamic linker refuses the load then too.
 */
public record Dependency(String name, String neededBy, Optional<Path> file, FoundBy foundBy, String foundDetail,
    List<String> missingVersions) {
  public Dependency {
    missingVersions = List.copyOf(missingVersions);
  }

  /** Whether dlopen would bind it: a file was found and it defines every version asked of it. */
  public boolean found() {
    return file().isPresent() && missingVersions().isEmpty();
  }

  /** Why dlopen would fail on this entry, for people; empty when {@link #found()}. */
  public String problem() {
    if (file().isEmpty()) {
      return name() + " not found (needed by " + neededBy() + ")";
    }
    if (!missingVersions().isEmpty()) {
      return name() + " (" + file().get() + ") lacks " + String.join(", ", missingVersions()) + ", which "
          + neededBy() + " needs";
    }
    return "";
  }

  /**
   * The step of the dynamic linker's search that bound a DT_NEEDED entry; {@link #toString()} is the reports' word.
   * Each constant is the loader model's {@link dev.tewheel.loader.FoundBy} of the same name, which says what it means.
   */
  public enum FoundBy {
    ALREADY_LOADED, PRELOADED, PATH, RPATH, LD_LIBRARY_PATH, RUNPATH, LD_SO_CACHE, DEFAULT_FOLDER, NOT_FOUND;

    @Override
    public String toString() {
      return dev.tewheel.loader.FoundBy.valueOf(name()).toString();
    }
  }
}
