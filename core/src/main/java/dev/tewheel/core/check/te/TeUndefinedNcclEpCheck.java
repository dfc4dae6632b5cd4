package dev.tewheel.core.check.te;

import dev.tewheel.core.check.PlacedLibraryCheck;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.ElfFile;
import java.util.List;
import java.util.Optional;

/**
 * No undefined ncclEp* symbol in the TE library: under -z now each one must resolve when TE loads, which would
 * make NCCL EP (and its NCCL) a hard requirement for every user.
 */
public final class TeUndefinedNcclEpCheck extends PlacedLibraryCheck {
  public TeUndefinedNcclEpCheck() {
    super("TE-UNDEFINED-NCCL-EP",
        "libtransformer_engine.so has no undefined ncclEp* symbol", Severity.ERROR,
        Subject::transformerEngineLibrary);
  }

  @Override
  protected void check(Subject subject, SubjectFile te, ElfFile elf, List<Finding> findings) {
    List<String> undefined = elf.undefinedSymbolNames().stream().filter(n -> n.startsWith("ncclEp")).toList();
    if (!undefined.isEmpty()) {
      findings.add(finding(te.origin(), "undefined symbols " + String.join(", ", undefined),
          "no undefined ncclEp* symbol", "call NCCL EP only through the provider's dlsym'd function pointers"
              + " (call_symbol), never directly"));
    }
  }
}
