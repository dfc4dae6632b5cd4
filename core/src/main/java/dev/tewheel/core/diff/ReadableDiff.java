package dev.tewheel.core.diff;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import java.util.ArrayList;
import java.util.List;

/**
 * DIFF-READABLE: every library of both releases reads as ELF. The ABI rules compare readable pairs only, so a
 * library the reader refuses on either side would otherwise leave DIFF-SONAME, DIFF-EXPORTS and the others silent.
 */
final class ReadableDiff extends DiffRule {
  ReadableDiff() {
    super("DIFF-READABLE", Severity.ERROR,
        "every library of both releases reads as ELF, so the ABI rules can compare it");
  }

  @Override
  List<Finding> run(Comparison comparison) {
    List<Finding> findings = new ArrayList<>();
    for (Comparison.Unreadable library : comparison.unreadable()) {
      String side = library.baselineSide() ? "the baseline" : "this release";
      findings.add(finding(library.file().origin(), "a library in " + side + " that cannot be read as ELF ("
              + library.reason() + ")", "an ELF shared object, so DIFF-SONAME, DIFF-NEEDED, DIFF-EXPORTS,"
              + " DIFF-GLIBC, DIFF-BIND-NOW and DIFF-GPU-ARCHS can compare " + library.file().path(),
          library.baselineSide() ? "point te.baseline at the previous release as it was published; its "
              + library.file().path() + " is not the library that shipped"
              : "ship the library the build wrote, not a copy, script or truncated file (verify's"
                  + " ELF-SHARED-OBJECT says more)"));
    }
    return findings;
  }
}
