package dev.tewheel.runtime;

import java.nio.file.Path;
import java.util.Optional;

/**
 * One file the selection rule (bundle's {@code NcclEpSelection}) looked at, and its verdict. te-runtime makes it;
 * an application reads it.
 */
public sealed interface NcclEpCandidate permits NcclEpCandidateRecord {
  /** Where it is. */
  Path file();

  /** Whether it may be loaded. */
  boolean accepted();

  /** Why it was accepted or rejected, for people. */
  String reason();

  /** Its SONAME, when it has one. */
  Optional<String> soname();

  /** Its full NCCL EP version, from its own name or the name of the file it links to. */
  Optional<NcclVersion> version();
}
