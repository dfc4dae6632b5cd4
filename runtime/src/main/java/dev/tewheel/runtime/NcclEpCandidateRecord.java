package dev.tewheel.runtime;

import java.nio.file.Path;
import java.util.Optional;

/** {@link NcclEpCandidate}'s value. Package-private, so its constructor is no part of the API. */
record NcclEpCandidateRecord(Path file, boolean accepted, String reason, Optional<String> soname,
    Optional<NcclVersion> version) implements NcclEpCandidate {
  /** The bundle's verdict in te-runtime's terms (bundle's types stay out of te-runtime's API). */
  static NcclEpCandidate of(dev.tewheel.bundle.ncclep.NcclEpCandidate judged) {
    return new NcclEpCandidateRecord(judged.file(), judged.accepted(), judged.reason(), judged.soname(),
        judged.version().map(NcclVersion::of));
  }
}
