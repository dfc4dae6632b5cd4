package dev.tewheel.core.check.layout;

import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectCheck;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import java.util.List;

/**
 * The layout's required files are there: the TE library always; with NCCL EP, its library and its headers
 * together, since the JIT cannot compile without them and the headers are useless without the library.
 */
public final class LayoutRequiredFilesCheck extends SubjectCheck {
  public LayoutRequiredFilesCheck() {
    super("LAYOUT-REQUIRED",
        "the layout's required files are present: TE library; NCCL EP library and nccl_ep.h together", Severity.ERROR);
  }

  @Override
  protected void check(Subject subject, List<Finding> findings) {
    String where = subject.description();
    if (subject.transformerEngineLibrary().isEmpty()) {
      findings.add(finding(where, "no " + subject.layout().transformerEngineLibrary(),
          subject.layout().transformerEngineLibrary() + " (layout " + subject.layout().name() + ")",
          "assemble wheel_lib with transformerEngineLibrary set to the built libtransformer_engine.so"));
    }
    boolean library = subject.ncclEpLibrary().isPresent();
    boolean header = subject.ncclEpHeader().isPresent();
    if (library && !header) {
      findings.add(finding(where, "the NCCL EP library without " + subject.layout().includeRoot() + "/nccl_ep.h",
          "NCCL EP's headers beside its library", "ship NCCL EP's include/ tree: the JIT compiles from it"));
    } else if (header && !library) {
      findings.add(finding(where, "NCCL EP headers without " + subject.layout().ncclEpLibrary(),
          "the NCCL EP library beside its headers", "ship NCCL EP's library, or neither"));
    }
  }
}
