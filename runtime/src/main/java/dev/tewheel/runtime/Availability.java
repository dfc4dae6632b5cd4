package dev.tewheel.runtime;

import dev.tewheel.bundle.ncclep.NcclEpCandidate;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The answer to "is NCCL EP available?", computed by exactly the rule {@link TeRuntime#loadNcclEp()} and TE's
 * provider load with: available means an accepted candidate exists (the right SONAME major, every function of
 * {@link NcclEp#REQUIRED_FUNCTIONS}), no other copy of its SONAME is already loaded from elsewhere, every DT_NEEDED of
 * it is loaded or found by the dynamic linker's search, and the NCCL gate passes. A failed load carries this report
 * ({@link LoadException#availability()}); {@link Report} renders it as text or JSON.
 *
 * <p>{@code available()}: whether {@code load()} would succeed
 * <p>{@code reason()}: {@code "available"}, or the first condition that failed, for people
 * <p>{@code searched()}: every step of the bundle search, in order
 * <p>{@code bundle()}: the folder the search settled on (a wheel_lib, an extracted class-path bundle or NCCL_EP_HOME)
 * <p>{@code requiredMajor()}: the NCCL EP SONAME major accepted
 * <p>{@code requiredMajorSource()}: where that major came from: the manifest, the builder, a system property, or the
 *     default
 * <p>{@code candidates()}: every file the selection rule judged, with its verdict
 * <p>{@code chosen()}: the accepted candidate {@code load()} loads
 * <p>{@code loadedElsewhere()}: a library with the chosen SONAME that another component already loaded from another
 *     file
 * <p>{@code dependencies()}: the chosen library's DT_NEEDED entries, each with where dlopen would take it from
 * <p>{@code nccl()}: the NCCL gate
 */
public final class Availability {
  private final boolean available;
  private final String reason;
  private final List<SearchStep> searched;
  private final Optional<Path> bundle;
  private final int requiredMajor;
  private final Provenance requiredMajorSource;
  private final List<NcclEpCandidate> candidates;
  private final Optional<NcclEpCandidate> chosen;
  private final Optional<Path> loadedElsewhere;
  private final List<Dependency> dependencies;
  private final NcclStatus nccl;

  /** Made by te-runtime only (its report is the contract, not this constructor). */
  Availability(boolean available, String reason, List<SearchStep> searched, Optional<Path> bundle, int requiredMajor,
      Provenance requiredMajorSource, List<NcclEpCandidate> candidates, Optional<NcclEpCandidate> chosen,
      Optional<Path> loadedElsewhere, List<Dependency> dependencies, NcclStatus nccl) {
    Objects.requireNonNull(reason, "reason");
    searched = List.copyOf(searched);
    Objects.requireNonNull(bundle, "bundle");
    Objects.requireNonNull(requiredMajorSource, "requiredMajorSource");
    candidates = List.copyOf(candidates);
    Objects.requireNonNull(chosen, "chosen");
    Objects.requireNonNull(loadedElsewhere, "loadedElsewhere");
    dependencies = List.copyOf(dependencies);
    Objects.requireNonNull(nccl, "nccl");
    this.available = available;
    this.reason = reason;
    this.searched = searched;
    this.bundle = bundle;
    this.requiredMajor = requiredMajor;
    this.requiredMajorSource = requiredMajorSource;
    this.candidates = candidates;
    this.chosen = chosen;
    this.loadedElsewhere = loadedElsewhere;
    this.dependencies = dependencies;
    this.nccl = nccl;
  }

  public boolean available() {
    return available;
  }

  public String reason() {
    return reason;
  }

  public List<SearchStep> searched() {
    return searched;
  }

  public Optional<Path> bundle() {
    return bundle;
  }

  public int requiredMajor() {
    return requiredMajor;
  }

  public Provenance requiredMajorSource() {
    return requiredMajorSource;
  }

  public List<NcclEpCandidate> candidates() {
    return candidates;
  }

  public Optional<NcclEpCandidate> chosen() {
    return chosen;
  }

  public Optional<Path> loadedElsewhere() {
    return loadedElsewhere;
  }

  public List<Dependency> dependencies() {
    return dependencies;
  }

  public NcclStatus nccl() {
    return nccl;
  }

  /** The chosen file, if any. */
  public Optional<Path> chosenFile() {
    return chosen.map(NcclEpCandidate::file);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Availability o && available == o.available
        && Objects.equals(reason, o.reason)
        && Objects.equals(searched, o.searched)
        && Objects.equals(bundle, o.bundle)
        && requiredMajor == o.requiredMajor
        && Objects.equals(requiredMajorSource, o.requiredMajorSource)
        && Objects.equals(candidates, o.candidates)
        && Objects.equals(chosen, o.chosen)
        && Objects.equals(loadedElsewhere, o.loadedElsewhere)
        && Objects.equals(dependencies, o.dependencies)
        && Objects.equals(nccl, o.nccl);
  }

  @Override
  public int hashCode() {
    return Objects.hash(available, reason, searched, bundle, requiredMajor, requiredMajorSource, candidates, chosen,
        loadedElsewhere, dependencies, nccl);
  }

  @Override
  public String toString() {
    return "Availability[available=" + available
        + ", reason=" + reason
        + ", searched=" + searched
        + ", bundle=" + bundle
        + ", requiredMajor=" + requiredMajor
        + ", requiredMajorSource=" + requiredMajorSource
        + ", candidates=" + candidates
        + ", chosen=" + chosen
        + ", loadedElsewhere=" + loadedElsewhere
        + ", dependencies=" + dependencies
        + ", nccl=" + nccl
        + "]";
  }
}
