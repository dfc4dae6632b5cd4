package dev.tewheel.core.check;

import dev.tewheel.core.headers.IncludeSearchPath;
import java.util.List;

/**
 * What a run of checks is configured with.
 *
 * @param ncclEpMajor the NCCL EP major the build requires, or null to take NCCL_EP_MAJOR from the shipped header
 * @param forbiddenNeeded glob patterns ({@code *} and {@code ?}) of DT_NEEDED names the TE library must not have
 * @param includeSearchPath how the JIT resolves quoted includes, and which headers come from outside the wheel
 */
public record CheckSettings(Integer ncclEpMajor, List<String> forbiddenNeeded, IncludeSearchPath includeSearchPath) {
  /** NCCL EP is dlopened and the CUDA driver comes from the user's machine: neither may be a DT_NEEDED. */
  public static final List<String> DEFAULT_FORBIDDEN_NEEDED = List.of("libnccl_ep*", "libcuda.so*");

  public CheckSettings {
    forbiddenNeeded = List.copyOf(forbiddenNeeded);
  }

  public static CheckSettings defaults() {
    return new CheckSettings(null, DEFAULT_FORBIDDEN_NEEDED, IncludeSearchPath.ncclEpJit());
  }

  public CheckSettings withNcclEpMajor(Integer major) {
    return new CheckSettings(major, forbiddenNeeded, includeSearchPath);
  }
}
