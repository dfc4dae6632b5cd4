package dev.tewheel.runtime.internal.load;

import dev.tewheel.runtime.internal.ffm.Symbols;
import dev.tewheel.runtime.report.EnvironmentSetting;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What NCCL EP and TE, each loaded once by {@code TeRuntime}, say alike of their load: their functions (and the file
 * opened), the file the dynamic linker mapped, and what became of {@code NCCL_EP_HOME}.
 */
public record LoadedLibrary(Symbols symbols, Path mappedFrom, Optional<EnvironmentSetting> ncclEpHome) {}
