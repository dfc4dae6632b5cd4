package dev.tewheel.runtime;

import dev.tewheel.runtime.internal.Symbols;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What NCCL EP and TE, each loaded once by {@link TeRuntime}, say alike of their load: their functions (and the file
 * opened), the file the dynamic linker mapped, what became of {@code NCCL_EP_HOME}, and the NCCL they are bound to.
 */
record LoadedLibrary(Symbols symbols, Path mappedFrom, Optional<EnvironmentSetting> ncclEpHome, Nccl nccl) {}
