package dev.tewheel.runtime.report;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What NCCL EP's JIT will use when it compiles its kernels, found by its own lookup (nccl-extensions
 * {@code nccl_ep/device/jit}): nvcc, its kernel headers, NCCL's and CUDA's headers, and its cache folder. An empty
 * environment value counts as unset, as in the JIT. te-runtime makes it; an application reads it.
 *
 * @param nvcc the nvcc the JIT runs; a bare {@code nvcc} not on PATH is empty.
 * @param nvccSource how the JIT picks it: {@code NCCL_EP_JIT_NVCC}, {@code NVCC}, {@code CUDA_HOME}, {@code CUDA_PATH}
 *     or {@code PATH}.
 * @param nvccVersion its release, e.g. {@code 13.0.88}, when it can be told.
 * @param sourceDir the folder of NCCL EP's kernel headers ({@code include/nccl_ep}).
 * @param sourceDirSource how: {@code NCCL_EP_JIT_SOURCE_DIR}, {@code NCCL_EP_HOME}, {@code bundle} (te-runtime sets
 *     NCCL_EP_HOME when it loads TE) or {@code config.h}.
 * @param ncclInclude the folder holding {@code nccl.h} the JIT includes.
 * @param ncclIncludeSource how: {@code NCCL_EP_JIT_BUILD_INCLUDE_DIR}, {@code NCCL_HOME}, {@code pip wheel}
 *     (te-runtime sets NCCL_EP_JIT_BUILD_INCLUDE_DIR to it) or {@code config.h}.
 * @param ncclHeaderVersion the version {@code nccl.h} declares.
 * @param ncclLoadedVersion the version of the libnccl.so.2 the NCCL gate read.
 * @param cudaInclude the folder holding CUDA's headers.
 * @param cudaIncludeSource how: {@code NCCL_EP_JIT_CUDA_INCLUDE_DIR}, {@code CUDA_HOME}, {@code CUDA_PATH} or {@code
 *     config.h}.
 * @param cccl whether {@code cccl/} is beside CUDA's headers (the JIT adds it to the include path).
 * @param cacheDir the JIT's cache folder.
 * @param cacheDirSource {@code NCCL_EP_JIT_CACHE_DIR} (the user's, refused in {@link #missing()} when another user
 *     could change it), {@code te-runtime} (a private per-user folder it sets when the variable is unset or empty;
 *     {@code te-runtime (…)} before it is set), or {@code none (…)} when no private folder could be made (then
 *     loading is refused).
 * @param cacheRefused the folders te-runtime passed over for its cache, each with why and what to do (another user's,
 *     writable by others, a symbolic link, below a folder another user could change, a relative value, or NCCL EP's
 *     shared {@code /tmp/nccl_ep/jit}).
 * @param environment the variables te-runtime sets (or would set) for the JIT, never overwriting a user's value.
 * @param missing what is missing, one sentence each; empty when the JIT is ready.
 * @param verdict {@code JIT ready}, or what is missing and what follows.
 */
public record JitPreflight(Optional<Path> nvcc, String nvccSource, Optional<String> nvccVersion,
    Optional<Path> sourceDir, String sourceDirSource, Optional<Path> ncclInclude, String ncclIncludeSource,
    Optional<NcclVersion> ncclHeaderVersion, Optional<NcclVersion> ncclLoadedVersion, Optional<Path> cudaInclude,
    String cudaIncludeSource, boolean cccl, Path cacheDir, String cacheDirSource, List<String> cacheRefused,
    List<EnvironmentSetting> environment, List<String> missing, String verdict) {
  public JitPreflight {
    cacheRefused = List.copyOf(cacheRefused);
    environment = List.copyOf(environment);
    missing = List.copyOf(missing);
  }

  /** Whether nothing is missing. */
  public boolean ready() {
    return missing().isEmpty();
  }
}
