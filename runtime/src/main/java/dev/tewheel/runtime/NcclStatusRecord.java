package dev.tewheel.runtime;

import java.nio.file.Path;
import java.util.Optional;

/** {@link NcclStatus}'s value. Package-private, so its constructor is no part of the API. */
record NcclStatusRecord(Optional<Path> library, Source source, Optional<NcclVersion> version, NcclVersion minimum,
    boolean ok, String detail) implements NcclStatus {}
