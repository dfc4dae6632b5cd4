package dev.tewheel.core.diff;

import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.GpuCode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** DIFF-GPU-ARCHS: no CUDA architecture (SASS or PTX) was dropped (warning); added ones are information. */
final class GpuArchsDiff extends DiffRule.PerLibraryNames {
  GpuArchsDiff() {
    super("DIFF-GPU-ARCHS", Severity.WARNING,
        "no CUDA architecture (SASS or PTX) was dropped (warning); added ones are information");
  }

  /** The SASS architectures, then the PTX ones. */
  @Override
  List<String> names(Subject side, SubjectFile file, ElfFile elf) throws IOException {
    GpuCode code = side.gpuCode(file);
    List<String> names = new ArrayList<>(code.sass());
    names.addAll(code.ptx());
    return names;
  }

  @Override
  void compare(Comparison.LibraryPair pair, List<String> before, List<String> dropped, List<String> gained,
      List<Finding> findings) {
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
}
