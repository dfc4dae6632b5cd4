package dev.tewheel.core.check.ncclep;

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
 * NCCL EP's library carries no RUNPATH or RPATH: by its convention NCCL is found through the loader's path or
 * preloaded with RTLD_GLOBAL, and a build machine's path would point at nothing on a user's machine.
 */
public final class NcclEpNoRunpathCheck extends PlacedLibraryCheck {
  public NcclEpNoRunpathCheck() {
    super("EP-NO-RUNPATH",
        "libnccl_ep.so has no RUNPATH or RPATH", Severity.ERROR,
        Subject::ncclEpLibrary);
  }

  @Override
  protected void check(Subject subject, SubjectFile ep, ElfFile elf, List<Finding> findings) {
    String fix = "link NCCL EP without -Wl,-rpath (its build sets none); callers find libnccl.so.2 themselves";
    if (!elf.runpath().isEmpty()) {
      findings.add(finding(ep.origin(), "RUNPATH " + String.join(":", elf.runpath()), "no RUNPATH", fix));
    }
    if (!elf.rpath().isEmpty()) {
      findings.add(finding(ep.origin(), "RPATH " + String.join(":", elf.rpath()), "no RPATH", fix));
    }
  }
}
