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
 * <p>{@code foundBy()}: which step of the linker's search bound it, or {@link FoundBy#NOT_FOUND}
 * <p>{@code foundDetail()}: why it was not found when a file was there, e.g. {@code /x/libcuda.so.1 (RPATH) is not a
 *     valid ELF object}; else empty
 * <p>{@code missingVersions()}: symbol versions the needing library asks of it (DT_VERNEED) that the file does not
 *     define, e.g. {@code GLIBC_2.38} on an older system: the dynamic linker refuses the load then too
 */
public final class Dependency {
  private final String name;
  private final String neededBy;
  private final Optional<Path> file;
  private final FoundBy foundBy;
  private final String foundDetail;
  private final List<String> missingVersions;

  /** Made by te-runtime only (its report is the contract, not this constructor). */
  Dependency(String name, String neededBy, Optional<Path> file, FoundBy foundBy, String foundDetail,
      List<String> missingVersions) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(neededBy, "neededBy");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(foundBy, "foundBy");
    Objects.requireNonNull(foundDetail, "foundDetail");
    missingVersions = List.copyOf(missingVersions);
    this.name = name;
    this.neededBy = neededBy;
    this.file = file;
    this.foundBy = foundBy;
    this.foundDetail = foundDetail;
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

  public FoundBy foundBy() {
    return foundBy;
  }

  public String foundDetail() {
    return foundDetail;
  }

  /** The reports' words: {@link #foundBy()}, then {@link #foundDetail()} when there is one. */
  String foundByText() {
    return foundDetail.isEmpty() ? foundBy.toString() : foundBy + ": " + foundDetail;
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
        && Objects.equals(foundDetail, o.foundDetail)
        && Objects.equals(missingVersions, o.missingVersions);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, neededBy, file, foundBy, foundDetail, missingVersions);
  }

  @Override
  public String toString() {
    return "Dependency[name=" + name
        + ", neededBy=" + neededBy
        + ", file=" + file
        + ", foundBy=" + foundByText()
        + ", missingVersions=" + missingVersions
        + "]";
  }

  /** The step of the dynamic linker's search that bound a DT_NEEDED entry; {@link #toString()} is the reports' word. */
  public enum FoundBy {
    /** A copy already mapped in this process, which a DT_NEEDED of its SONAME binds to. */
    ALREADY_LOADED("already loaded"),
    /** The copy te-runtime loads first (the libnccl.so.2 the NCCL gate read). */
    PRELOADED("preloaded by te-runtime"),
    /** The name has a '/': that file. */
    PATH("path"),
    /** DT_RPATH of the needing object or of one that loaded it, up to the executable's. */
    RPATH("RPATH"),
    /** The {@code LD_LIBRARY_PATH} environment variable. */
    LD_LIBRARY_PATH("LD_LIBRARY_PATH"),
    /** DT_RUNPATH of the needing object. */
    RUNPATH("RUNPATH"),
    /** {@code /etc/ld.so.cache}. */
    LD_SO_CACHE("/etc/ld.so.cache"),
    /** The linker's built-in folders ({@code /lib/x86_64-linux-gnu}, {@code /lib64}, ...). */
    DEFAULT_FOLDER("default folder"),
    /** No step found a usable file. */
    NOT_FOUND("not found");

    private final String text;

    FoundBy(String text) {
      this.text = text;
    }

    @Override
    public String toString() {
      return text;
    }
  }
}
