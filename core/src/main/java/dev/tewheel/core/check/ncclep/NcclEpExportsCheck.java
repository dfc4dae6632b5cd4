package dev.tewheel.core.check.ncclep;

import dev.tewheel.bundle.ncclep.NcclEpFunctions;
import dev.tewheel.core.check.PlacedLibraryCheck;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.ElfFile;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * NCCL EP's library defines every function of {@link NcclEpFunctions#REQUIRED}: ncclEpGetVersion and the eight that
 * TE's provider resolves with dlsym. The runtime's availability applies the same list, so a bundle this check passes
 * is one te-runtime and TE's loader both accept.
 */
public final class NcclEpExportsCheck extends PlacedLibraryCheck {
  public NcclEpExportsCheck() {
    super("EP-EXPORTS",
        "libnccl_ep.so exports the functions TE's provider resolves", Severity.ERROR,
        Subject::ncclEpLibrary);
  }

  @Override
  protected void check(Subject subject, SubjectFile ep, ElfFile elf, List<Finding> findings) {
    Set<String> defined = elf.definedSymbolNames();
    List<String> missing = NcclEpFunctions.REQUIRED.stream().filter(name -> !defined.contains(name)).toList();
    if (!missing.isEmpty()) {
      findings.add(finding(ep.origin(), "no defined dynamic symbol " + String.join(", ", missing),
          String.join(", ", NcclEpFunctions.REQUIRED) + " exported (TE's provider resolves them with dlsym)",
          "ship the NCCL EP library itself (not a static archive or a stripped stub) built with default visibility"
              + " for its API, from an nccl-extensions release that has them"));
    }
  }
}
