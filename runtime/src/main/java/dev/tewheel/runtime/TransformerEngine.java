package dev.tewheel.runtime;

import dev.tewheel.runtime.internal.Symbols;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code libtransformer_engine.so}, loaded by {@link TeRuntime#loadTransformerEngine()} (RTLD_NOW | RTLD_GLOBAL,
 * as TE's Python side loads it) after {@code NCCL_EP_HOME} was set for NCCL EP's JIT. It stays loaded for the life
 * of the process.
 */
public final class TransformerEngine {
  private final Path file;
  private final Path mappedFrom;
  private final Optional<EnvironmentSetting> ncclEpHome;
  private final Symbols symbols;

  TransformerEngine(Path file, Path mappedFrom, Optional<EnvironmentSetting> ncclEpHome, Symbols symbols) {
    this.file = file;
    this.mappedFrom = mappedFrom;
    this.ncclEpHome = ncclEpHome;
    this.symbols = symbols;
  }

  public Path file() {
    return file;
  }

  /** The file the dynamic linker mapped, by dlinfo. */
  public Path mappedFrom() {
    return mappedFrom;
  }

  /**
   * What became of {@code NCCL_EP_HOME}: set by te-runtime to the bundle's folder holding
   * {@code include/nccl_ep/}, or already set by the user (whose value wins); empty when the bundle ships no NCCL EP.
   */
  public Optional<EnvironmentSetting> ncclEpHome() {
    return ncclEpHome;
  }

  /**
   * A downcall handle for a function of the library, created once per (name, descriptor, options) and cached.
   *
   * @throws UnresolvedSymbolException {@code Unresolved symbol: <name>} when the library does not define it
   */
  public MethodHandle function(String name, FunctionDescriptor descriptor, Linker.Option... options) {
    return symbols.function(name, descriptor, options);
  }
}
