package dev.tewheel.runtime;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What NCCL EP's JIT will use when it compiles its kernels, found by its own lookup (nccl-extensions
 * {@code nccl_ep/device/jit}): nvcc, its kernel headers, NCCL's and CUDA's headers, and its cache folder. An empty
 * environment value counts as unset, as in the JIT. te-runtime makes it; an application reads it.
 */
public sealed interface JitPreflight permits JitPreflightRecord {
  /** The nvcc the JIT runs; a bare {@code nvcc} not on PATH is empty. */
  Optional<Path> nvcc();

  /**
   * How the JIT picks it: {@code NCCL_EP_JIT_NVCC}, {@code NVCC}, {@code CUDA_HOME}, {@code CUDA_PATH} or
   * {@code PATH}.
   */
  String nvccSource();

  /** Its release, e.g. {@code 13.0.88}, when it can be told. */
  Optional<String> nvccVersion();

  /** The folder of NCCL EP's kernel headers ({@code include/nccl_ep}). */
  Optional<Path> sourceDir();

  /**
   * How: {@code NCCL_EP_JIT_SOURCE_DIR}, {@code NCCL_EP_HOME}, {@code bundle} (te-runtime sets NCCL_EP_HOME when it
   * loads TE) or {@code config.h}.
   */
  String sourceDirSource();

  /** The folder holding {@code nccl.h} the JIT includes. */
  Optional<Path> ncclInclude();

  /**
   * How: {@code NCCL_EP_JIT_BUILD_INCLUDE_DIR}, {@code NCCL_HOME}, {@code pip wheel} (te-runtime sets
   * NCCL_EP_JIT_BUILD_INCLUDE_DIR to it) or {@code config.h}.
   */
  String ncclIncludeSource();

  /** The version {@code nccl.h} declares. */
  Optional<NcclVersion> ncclHeaderVersion();

  /** The version of the libnccl.so.2 the NCCL gate read. */
  Optional<NcclVersion> ncclLoadedVersion();

  /** The folder holding CUDA's headers. */
  Optional<Path> cudaInclude();

  /** How: {@code NCCL_EP_JIT_CUDA_INCLUDE_DIR}, {@code CUDA_HOME}, {@code CUDA_PATH} or {@code config.h}. */
  String cudaIncludeSource();

  /** Whether {@code cccl/} is beside CUDA's headers (the JIT adds it to the include path). */
  boolean cccl();

  /** The JIT's cache folder. */
  Path cacheDir();

  /**
   * {@code NCCL_EP_JIT_CACHE_DIR} (the user's, refused in {@link #missing()} when another user could change it),
   * {@code te-runtime} (a private per-user folder it sets when the variable is unset or empty; {@code te-runtime (…)}
   * before it is set), or {@code none (…)} when no private folder could be made (then loading is refused).
   */
  String cacheDirSource();

  /**
   * The folders te-runtime passed over for its cache, each with why and what to do (another user's, writable by
   * others, a symbolic link, below a folder another user could change, a relative value, or NCCL EP's shared
   * {@code /tmp/nccl_ep/jit}).
   */
  List<String> cacheRefused();

  /** The variables te-runtime sets (or would set) for the JIT, never overwriting a user's value. */
  List<EnvironmentSetting> environment();

  /** What is missing, one sentence each; empty when the JIT is ready. */
  List<String> missing();

  /** {@code JIT ready}, or what is missing and what follows. */
  String verdict();

  /** Whether nothing is missing. */
  default boolean ready() {
    return missing().isEmpty();
  }
}
