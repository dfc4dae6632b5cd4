package dev.tewheel.runtime;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A DT_NEEDED entry of a library, and where the dynamic linker would take it from if the library were opened now.
 *
 * <p>{@code name()}: the DT_NEEDED name, e.g. {@code libcuda.so.1}
 * <p>{@code neededBy()}: the SONAME (else file name) of the library that needs it
 * <p>{@code file()}: the file that would be bound; empty when the linker's search finds none
 * <p>{@code foundBy()}: how: {@code already loaded}, {@code preloaded by te-runtime}, {@code LD_LIBRARY_PATH}, {@code
 *     RPATH}, {@code RUNPATH}, {@code /etc/ld.so.cache} or {@code default folder}; {@code not found}
 * <p>{@code missingVersions()}: symbol versions the needing library asks of it (DT_VERNEED) that the file does not
 *     define, e.g. {@code GLIBC_2.38} on an older system: the dynamic linker refuses the load then too
 */
public final class Dependency {
  private final String name;
  private final String neededBy;
  private final Optional<Path> file;
  private final String foundBy;
  private final List<String> missingVersions;

  /** Made by te-runtime only (its report is the contract, not this constructor). */
  Dependency(String name, String neededBy, Optional<Path> file, String foundBy, List<String> missingVersions) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(neededBy, "neededBy");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(foundBy, "foundBy");
    missingVersions = List.copyOf(missingVersions);
    this.name = name;
    this.neededBy = neededBy;
    this.file = file;
    this.foundBy = foundBy;
    this.missingVersions = missingVersions;
  }

  public String name() {
    return name;
  }

  public String neededBy() {
    return neededBy;
  }

  public Optional<Path> file() {
    return file;
  }

  public String foundBy() {
    return foundBy;
  }

  public List<String> missingVersions() {
    return missingVersions;
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

  @Override
  public boolean equals(Object other) {
    return other instanceof Dependency o && Objects.equals(name, o.name)
        && Objects.equals(neededBy, o.neededBy)
        && Objects.equals(file, o.file)
        && Objects.equals(foundBy, o.foundBy)
        && Objects.equals(missingVersions, o.missingVersions);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, neededBy, file, foundBy, missingVersions);
  }

  @Override
  public String toString() {
    return "Dependency[name=" + name
        + ", neededBy=" + neededBy
        + ", file=" + file
        + ", foundBy=" + foundBy
        + ", missingVersions=" + missingVersions
        + "]";
  }
}
