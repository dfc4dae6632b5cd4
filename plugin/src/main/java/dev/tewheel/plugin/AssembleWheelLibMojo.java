package dev.tewheel.plugin;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.assemble.AssembleException;
import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.AssembleResult;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.assemble.BuildTimestamp;
import java.io.File;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Lays out {@code transformer_engine/wheel_lib} from a Transformer Engine build: the TE library, the one real NCCL
 * EP library file and NCCL EP's JIT headers, checked before anything is written, plus the manifest
 * {@code te-wheel-lib.json}. Atomic, incremental and reproducible; see docs/goals/assemble-wheel-lib.md.
 */
@Mojo(name = "assemble-wheel-lib", defaultPhase = LifecyclePhase.PREPARE_PACKAGE, threadSafe = true)
public class AssembleWheelLibMojo extends CheckingMojo {
  /** The libtransformer_engine.so that TE's CMake build produced. */
  @Parameter(property = "te.transformerEngineLibrary", required = true)
  File transformerEngineLibrary;

  /** NCCL EP's build prefix (lib/libnccl_ep.so*, include/); unset ships no NCCL EP (NVTE_WITH_NCCL_EP=OFF). */
  @Parameter(property = "te.ncclEpHome")
  File ncclEpHome;

  /** Patterns over include/ of the headers to ship. */
  @Parameter(property = "te.headerIncludes", defaultValue = "**/*.h,**/*.hpp,**/*.cuh")
  List<String> headerIncludes;

  /** Patterns over include/ of headers to leave out. */
  @Parameter(property = "te.headerExcludes")
  List<String> headerExcludes;

  /** The wheel_lib folder to write. */
  @Parameter(property = "te.outputDirectory",
      defaultValue = "${project.build.directory}/wheel/transformer_engine/wheel_lib")
  File outputDirectory;

  /** Built-in layout: default (TE's release tree) or ep-home (wheel_lib/nccl_ep is a complete NCCL_EP_HOME). */
  @Parameter(property = "te.layout", defaultValue = "default")
  String layout;

  /** Another path for the NCCL EP library inside wheel_lib, e.g. libnccl_ep.so.{major}. */
  @Parameter(property = "te.ncclEpLibrary")
  String ncclEpLibrary;

  /** Another folder (named include) for NCCL EP's headers inside wheel_lib. */
  @Parameter(property = "te.includeRoot")
  String includeRoot;

  /** The mtime of every written file, for reproducible trees. */
  @Parameter(property = "te.outputTimestamp", defaultValue = "${project.build.outputTimestamp}")
  String outputTimestamp;

  /** Where the record of the last run goes (for incremental runs); outside wheel_lib's package, so it is never packed. */
  @Parameter(property = "te.stateFile", defaultValue = "${project.build.directory}/te-wheel/assemble-state.json")
  File stateFile;

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skipped("te:assemble-wheel-lib")) {
      return;
    }
    AssembleRequest request;
    try {
      Layout chosen = Layout.named(layout);
      if (ncclEpLibrary != null && !ncclEpLibrary.isBlank()) {
        chosen = chosen.withNcclEpLibrary(ncclEpLibrary.trim());
      }
      if (includeRoot != null && !includeRoot.isBlank()) {
        chosen = chosen.withIncludeRoot(includeRoot.trim());
      }
      request = new AssembleRequest(transformerEngineLibrary.toPath(),
          ncclEpHome == null ? null : ncclEpHome.toPath(), headerIncludes, headerExcludes, outputDirectory.toPath(),
          chosen, checkSettings(), severityOverrides(),
          BuildTimestamp.parse(outputTimestamp).orElse(null), stateFile == null ? null : stateFile.toPath());
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException("te:assemble-wheel-lib is misconfigured: " + e.getMessage(), e);
    }
    if (ncclEpHome == null) {
      getLog().info("ncclEpHome is not set: wheel_lib ships no NCCL EP (a build with NVTE_WITH_NCCL_EP=OFF)");
    }
    try {
      AssembleResult result = new Assembler(line -> getLog().info(line)).assemble(request);
      result.findings().forEach(f -> getLog().warn(f.message()));
      result.report().forEach(getLog()::info);
    } catch (AssembleException e) {
      throw new MojoFailureException(e.getMessage(), e);
    }
  }
}
