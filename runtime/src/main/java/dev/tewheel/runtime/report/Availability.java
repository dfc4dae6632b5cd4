package dev.tewheel.runtime.report;

import dev.tewheel.runtime.error.LoadException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The answer to "is NCCL EP available?", computed by exactly the rule {@link
 * dev.tewheel.runtime.TeRuntime#loadNcclEp()} and TE's
 * provider load with: available means an accepted candidate exists (the right SONAME major, every function of
 * {@link dev.tewheel.runtime.ncclep.NcclEp#REQUIRED_FUNCTIONS}), no other copy of its SONAME is already loaded from
 * elsewhere, every DT_NEEDED of
 * it is loaded or found by the dynamic linker's search, and the NCCL gate passes. A failed load carries this report
 * ({@link LoadException#availability()}); {@link Report} renders it as text or JSON. te-runtime makes it; an
 * application reads it.
 *
 * @param available whether {@code load()} would succeed.
 * @param reason {@code "available"}, or the first condition that failed, for people.
 * @param searched every step of the bundle search, in order.
 * @param bundle the folder the search settled on (a wheel_lib, an extracted class-path bundle or NCCL_EP_HOME).
 * @param requiredMajor the NCCL EP SONAME major accepted.
 * @param requiredMajorSource where {@link #requiredMajor()} came from: the manifest, the builder, a system property,
 *     or the default.
 * @param candidates every file the selection rule judged, with its verdict.
 * @param chosen the accepted candidate {@code load()} loads.
 * @param loadedElsewhere a library with the chosen SONAME that another component already loaded from another file.
 * @param dependencies the chosen library's DT_NEEDED entries, each with where dlopen would take it from.
 * @param nccl the NCCL gate.
 */
public record Availability(boolean available, String reason, List<SearchStep> searched, Optional<Path> bundle,
    int requiredMajor, Provenance requiredMajorSource, List<NcclEpCandidate> candidates,
    Optional<NcclEpCandidate> chosen, Optional<Path> loadedElsewhere, List<Dependency> dependencies, NcclStatus nccl) {
  public Availability {
    searched = List.copyOf(searched);
    candidates = List.copyOf(candidates);
    dependencies = List.copyOf(dependencies);
  }

  /** The chosen file, if any. */
  public Optional<Path> chosenFile() {
    return chosen().map(NcclEpCandidate::file);
  }
}
