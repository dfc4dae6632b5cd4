package dev.tewheel.core.check.te;

import dev.tewheel.core.check.PlacedLibraryCheck;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.ElfFile;
import java.util.ArrayList;
import java.util.List;

/** The TE library resolves every symbol at load time (-z now), as BOLT optimization requires. */
public final class TeBindNowCheck extends PlacedLibraryCheck {
  public TeBindNowCheck() {
    super("TE-BIND-NOW",
        "libtransformer_engine.so is linked with -z now (BIND_NOW)", Severity.ERROR,
        Subject::transformerEngineLibrary);
  }

  @Override
  protected void check(Subject subject, SubjectFile te, ElfFile elf, List<Finding> findings) {
    if (!elf.bindNow()) {
      findings.add(finding(te.origin(), "lazy binding (no DT_BIND_NOW, no DF_BIND_NOW, no DF_1_NOW)",
          "BIND_NOW, as -z now produces", "link libtransformer_engine.so with -Wl,-z,now"));
    }
  }
}
