package dev.tewheel.bundle.ncclep;

import java.nio.file.Path;
import java.util.Optional;

/**
 * One file the selection rule looked at, and its verdict.
 *
 * @param file where it is
 * @param accepted whether it may be loaded
 * @param reason why it was accepted or rejected, for people
 * @param soname its SONAME, when it has one
 * @param version its full version, from its own name or the name of the file it links to
 */
public record NcclEpCandidate(Path file, boolean accepted, String reason, Optional<String> soname,
    Optional<NcclEpVersion> version) {}
