package dev.tewheel.runtime.report;

import java.nio.file.Path;
import java.util.Optional;

/**
 * One file the selection rule (bundle's {@code NcclEpSelection}) looked at, and its verdict. te-runtime makes it;
 * an application reads it.
 *
 * @param file where it is.
 * @param accepted whether it may be loaded.
 * @param reason why it was accepted or rejected, for people.
 * @param soname its SONAME, when it has one.
 * @param version its full NCCL EP version, from its own name or the name of the file it links to.
 */
public record NcclEpCandidate(Path file, boolean accepted, String reason, Optional<String> soname,
    Optional<NcclVersion> version) {}
