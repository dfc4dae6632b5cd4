package dev.tewheel.runtime;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The answer to "is NCCL EP available?", computed by exactly the rule {@link TeRuntime#loadNcclEp()} and TE's
 * provider load with: available means an accepted candidate exists (the right SONAME major, every function of
 * {@link NcclEp#REQUIRED_FUNCTIONS}), no other copy of its SONAME is already loaded from elsewhere, every DT_NEEDED of
 * it is loaded or found by the dynamic linker's search, and the NCCL gate passes. A failed load carries this report
 * ({@link LoadException#availability()}); {@link Report} renders it as text or JSON. te-runtime makes it; an
 * application reads it.
 */
public sealed interface Availability permits AvailabilityRecord {
  /** Whether {@code load()} would succeed. */
  boolean available();

  /** {@code "available"}, or the first condition that failed, for people. */
  String reason();

  /** Every step of the bundle search, in order. */
  List<SearchStep> searched();

  /** The folder the search settled on (a wheel_lib, an extracted class-path bundle or NCCL_EP_HOME). */
  Optional<Path> bundle();

  /** The NCCL EP SONAME major accepted. */
  int requiredMajor();

  /** Where {@link #requiredMajor()} came from: the manifest, the builder, a system property, or the default. */
  Provenance requiredMajorSource();

  /** Every file the selection rule judged, with its verdict. */
  List<NcclEpCandidate> candidates();

  /** The accepted candidate {@code load()} loads. */
  Optional<NcclEpCandidate> chosen();

  /** A library with the chosen SONAME that another component already loaded from another file. */
  Optional<Path> loadedElsewhere();

  /** The chosen library's DT_NEEDED entries, each with where dlopen would take it from. */
  List<Dependency> dependencies();

  /** The NCCL gate. */
  NcclStatus nccl();

  /** The chosen file, if any. */
  default Optional<Path> chosenFile() {
    return chosen().map(NcclEpCandidate::file);
  }
}
