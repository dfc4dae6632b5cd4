package dev.tewheel.core.check;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import java.util.ArrayList;
import java.util.List;

/** The TE library resolves every symbol at load time (-z now), as BOLT optimization requires. */
final class TeBindNowCheck extends BaseCheck {
  TeBindNowCheck() {
    super("TE-BIND-NOW",
        "libtransformer_engine.so is linked with -z now (BIND_NOW)", Severity.ERROR);
  }

  @Override
  public List<Finding> run(Subject subject) {
    List<Finding> findings = new ArrayList<>();
    subject.transformerEngineLibrary().ifPresent(te -> subject.readableElf(te, this, findings)
        .filter(elf -> !elf.bindNow())
        .ifPresent(elf -> findings.add(finding(te.origin(), "lazy binding (no DT_BIND_NOW, no DF_BIND_NOW,"
            + " no DF_1_NOW)", "BIND_NOW, as -z now produces", "link libtransformer_engine.so with -Wl,-z,now"))));
    return findings;
  }
}
