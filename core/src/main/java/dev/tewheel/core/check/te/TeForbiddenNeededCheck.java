package dev.tewheel.core.check.te;

import dev.tewheel.core.check.Libraries;
import dev.tewheel.core.check.PlacedLibraryCheck;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.ElfFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The TE library does not NEED what must stay optional: NCCL EP is opened with dlopen on first use, and the CUDA
 * driver comes from the user's machine.
 */
public final class TeForbiddenNeededCheck extends PlacedLibraryCheck {
  public TeForbiddenNeededCheck() {
    super("TE-FORBIDDEN-NEEDED",
        "libtransformer_engine.so has no DT_NEEDED on NCCL EP or the CUDA driver", Severity.ERROR,
        Subject::transformerEngineLibrary);
  }

  @Override
  protected void check(Subject subject, SubjectFile te, ElfFile elf, List<Finding> findings) {
    for (String name : elf.needed()) {
      for (String pattern : subject.settings().forbiddenNeeded()) {
        if (Libraries.globMatches(pattern, name)) {
          findings.add(finding(te.origin(), "DT_NEEDED " + name, "no DT_NEEDED matching " + pattern, fixFor(name)));
          break;
        }
      }
    }
  }

  private static String fixFor(String name) {
    if (name.startsWith("libnccl_ep")) {
      return "do not link libtransformer_engine.so against NCCL EP (remove nccl_ep from target_link_libraries);"
          + " TE's provider opens it with dlopen when EP is used";
    }
    if (name.startsWith("libcuda")) {
      return "do not link libtransformer_engine.so against the CUDA driver (-lcuda); resolve driver entry points"
          + " at run time (cudaGetDriverEntryPoint) or link the runtime only";
    }
    return "remove " + name + " from libtransformer_engine.so's link line";
  }
}
