package dev.tewheel.plugin;

import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.Severity;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * The parameters of the check catalogue, shared by the goals that run it (assemble and verify), so each is
 * declared, named and documented once.
 */
abstract class CheckingMojo extends AbstractMojo {
  /** The NCCL EP major TE was built against; default: NCCL_EP_MAJOR of the shipped nccl_ep.h. */
  @Parameter(property = "te.ncclEpMajor")
  Integer ncclEpMajor;

  /** Glob patterns of DT_NEEDED names the TE library must not have. */
  @Parameter(property = "te.forbiddenNeeded", defaultValue = "libnccl_ep*,libcuda.so*")
  List<String> forbiddenNeeded;

  /**
   * The folders, relative to the include root ("" for the root itself), where a quoted include is looked for after
   * the including file's own folder; default: NCCL EP's JIT order nccl_ep, nccl_ep/device, "".
   */
  @Parameter(property = "te.includeSearchPath")
  List<String> includeSearchPath;

  /** More headers (names or relative paths) that come from outside the wheel, beside NCCL's and CUDA's. */
  @Parameter(property = "te.externalHeaders")
  List<String> externalHeaders;

  /** More DT_NEEDED glob patterns that may stay unshipped (provided by the system or a wheel dependency). */
  @Parameter(property = "te.allowedNeeded")
  List<String> allowedNeeded;

  /**
   * The GPU architectures the release supports, e.g. 80,90,100,120 (as CMAKE_CUDA_ARCHITECTURES; 90a or 100f for
   * architecture- or family-specific code): GPU-ARCHS holds every library with CUDA code to them. None: not checked.
   */
  @Parameter(property = "te.cudaArchitectures")
  List<String> cudaArchitectures;

  /** Severity overrides, each ID=error|warning|info. */
  @Parameter(property = "te.severities")
  List<String> severities;

  /** Skips the goal. */
  @Parameter(property = "te.skip", defaultValue = "false")
  boolean skip;

  /** @throws IllegalArgumentException on a malformed parameter */
  CheckSettings checkSettings() {
    return CheckSettings.of(ncclEpMajor, forbiddenNeeded, includeSearchPath, externalHeaders, allowedNeeded)
        .withCudaArchitectures(cudaArchitectures);
  }

  /** @throws IllegalArgumentException on a malformed entry */
  Map<String, Severity> severityOverrides() {
    return Severity.overrides(severities);
  }

  /** True, after saying so, when {@code skip} is set. */
  boolean skipped(String goal) {
    if (skip) {
      getLog().info(goal + " skipped (te.skip)");
    }
    return skip;
  }
}
