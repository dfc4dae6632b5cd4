package dev.tewheel.core.diff;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.GpuCode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** DIFF-GPU-ARCHS: no CUDA architecture (SASS or PTX) was dropped (warning); added ones are information. */
final class GpuArchsDiff extends DiffRule.PerLibrary {
  GpuArchsDiff() {
    super("DIFF-GPU-ARCHS", Severity.WARNING,
        "no CUDA architecture (SASS or PTX) was dropped (warning); added ones are information");
  }

  @Override
  void compare(Comparison comparison, Comparison.LibraryPair pair, List<Finding> findings) {
    List<String> before;
    List<String> after;
    try {
      before = archs(comparison.baseline().gpuCode(pair.baselineFile()));
      after = archs(comparison.current().gpuCode(pair.file()));
    } catch (IOException e) {
      return; // verify's GPU-ARCHS reports unreadable fat binaries
    }
    List<String> dropped = minus(before, after);
    List<String> gained = minus(after, before);
    if (!dropped.isEmpty()) {
      findings.add(finding(pair.origin(), "CUDA code dropped: " + String.join(", ", dropped),
          "the baseline's " + String.join(", ", before), "restore the -gencode entries, or announce that"
              + " the release no longer supports these GPUs (verify's GPU-ARCHS with cudaArchitectures)"));
    }
    if (!gained.isEmpty()) {
      findings.add(finding(pair.origin(), "CUDA code added: " + String.join(", ", gained),
          "the baseline's " + String.join(", ", before), "nothing to fix: more GPUs supported")
          .withSeverity(Severity.INFO));
    }
  }

  private static List<String> archs(GpuCode code) {
    List<String> names = new ArrayList<>(code.sass());
    names.addAll(code.ptx());
    return names;
  }
}
