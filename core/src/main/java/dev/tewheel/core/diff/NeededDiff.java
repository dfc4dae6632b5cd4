package dev.tewheel.core.diff;

import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.ElfFile;
import java.util.List;

/** DIFF-NEEDED: a DT_NEEDED added is a warning (one more thing users' machines must provide); one removed, info. */
final class NeededDiff extends DiffRule.PerLibraryNames {
  NeededDiff() {
    super("DIFF-NEEDED", Severity.WARNING, "DT_NEEDED entries added or removed per library");
  }

  @Override
  List<String> names(Subject side, SubjectFile file, ElfFile elf) {
    return elf.needed();
  }

  @Override
  void compare(Comparison.LibraryPair pair, List<String> before, List<String> removed, List<String> added,
      List<Finding> findings) {
    for (String n : added) {
      findings.add(finding(pair.origin(), "a new DT_NEEDED " + n, "the baseline's DT_NEEDED " + before,
          "make sure " + n + " is shipped or on every user's system (verify's DEPS-RESOLVE)"));
    }
    for (String n : removed) {
      findings.add(finding(pair.origin(), "DT_NEEDED " + n + " removed", "the baseline's DT_NEEDED " + before,
          "nothing to fix if the dependency is gone on purpose").withSeverity(Severity.INFO));
    }
  }
}
