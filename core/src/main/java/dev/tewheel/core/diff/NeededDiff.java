package dev.tewheel.core.diff;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import java.util.List;

/** DIFF-NEEDED: a DT_NEEDED added is a warning (one more thing users' machines must provide); one removed, info. */
final class NeededDiff extends DiffRule.PerLibrary {
  NeededDiff() {
    super("DIFF-NEEDED", Severity.WARNING, "DT_NEEDED entries added or removed per library");
  }

  @Override
  void compare(Comparison comparison, Comparison.LibraryPair pair, List<Finding> findings) {
    List<String> before = pair.before().needed();
    List<String> after = pair.after().needed();
    for (String n : minus(after, before)) {
      findings.add(finding(pair.origin(), "a new DT_NEEDED " + n, "the baseline's DT_NEEDED " + before,
          "make sure " + n + " is shipped or on every user's system (verify's DEPS-RESOLVE)"));
    }
    for (String n : minus(before, after)) {
      findings.add(finding(pair.origin(), "DT_NEEDED " + n + " removed", "the baseline's DT_NEEDED " + before,
          "nothing to fix if the dependency is gone on purpose").withSeverity(Severity.INFO));
    }
  }
}
