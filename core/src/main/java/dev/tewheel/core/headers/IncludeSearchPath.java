package dev.tewheel.core.headers;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * How NCCL EP's JIT compiler resolves a quoted {@code #include "x"}: first the including file's own folder, then
 * each folder of {@link #folders()} (relative to the include root, "" being the root itself). A name that resolves
 * nowhere in the tree is fine only when it is one of {@link #externalHeaders()}, the headers that come from NCCL
 * and CUDA on the user's machine.
 *
 * @param folders searched after the including file's folder, in order
 * @param externalHeaders file names or relative paths of headers that are not shipped
 */
public record IncludeSearchPath(List<String> folders, Set<String> externalHeaders) {
  /**
   * The {@code -I} order NCCL EP's JIT gives nvcc: include, include/nccl_ep, include/nccl_ep/device; NCCL's and
   * CUDA's folders follow and are outside the wheel.
   */
  public static final List<String> NCCL_EP_JIT_FOLDERS = List.of("", "nccl_ep", "nccl_ep/device");

  /** Headers NCCL and CUDA provide on the user's machine (NCCL_EP_JIT_BUILD_INCLUDE_DIR, ..._CUDA_INCLUDE_DIR). */
  public static final Set<String> DEFAULT_EXTERNAL_HEADERS = Set.of(
      "nccl.h", "nccl_device.h", "nccl_net.h", "cuda.h", "cuda_runtime.h", "cuda_runtime_api.h", "cuda_fp16.h",
      "cuda_bf16.h", "cuda_fp8.h", "cuda/atomic", "cuda/std/cstdint", "cooperative_groups.h",
      "device_launch_parameters.h", "vector_types.h");

  public IncludeSearchPath {
    folders = List.copyOf(folders);
    externalHeaders = Set.copyOf(externalHeaders);
    for (String folder : folders) {
      Objects.requireNonNull(folder, "folder");
      if (folder.startsWith("/") || folder.contains("..")) {
        throw new IllegalArgumentException("include search folder '" + folder
            + "' must be relative to the include root, without '..'");
      }
    }
  }

  public static IncludeSearchPath ncclEpJit() {
    return new IncludeSearchPath(NCCL_EP_JIT_FOLDERS, DEFAULT_EXTERNAL_HEADERS);
  }

  /** The same external headers with other folders; null or empty keeps these. */
  public IncludeSearchPath withFolders(List<String> other) {
    return other == null || other.isEmpty() ? this
        : new IncludeSearchPath(other.stream().map(f -> f.replaceAll("^/+|/+$", "")).toList(), externalHeaders);
  }

  /** The same search path with more external headers (e.g. from a {@code externalHeaders} parameter). */
  public IncludeSearchPath withExternalHeaders(Set<String> more) {
    return new IncludeSearchPath(folders, union(externalHeaders, more));
  }

  boolean isExternal(String name) {
    if (externalHeaders.contains(name)) {
      return true;
    }
    int slash = name.lastIndexOf('/');
    return slash >= 0 && externalHeaders.contains(name.substring(slash + 1));
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    java.util.Set<String> all = new java.util.HashSet<>(a);
    all.addAll(b);
    return all;
  }
}
