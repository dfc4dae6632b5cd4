package dev.tewheel.core.diff;

import dev.tewheel.core.gate.BaseRule;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import java.util.ArrayList;
import java.util.List;

/**
 * One thing te:diff-wheel compares, with a stable ID for reports, severity overrides and suppressions; one class
 * each, as the checks are. A rule reports some findings below its default severity (an added export is
 * information, a removed one an error).
 */
public abstract class DiffRule extends BaseRule {
  DiffRule(String id, Severity severity, String title) {
    super(id, title, severity);
  }

  /** Every finding about the comparison. */
  abstract List<Finding> run(Comparison comparison);

  public static List<DiffRule> all() {
    return DiffRules.ALL;
  }

  /** A rule about each library both releases ship: called once per pair, both sides readable. */
  abstract static class PerLibrary extends DiffRule {
    PerLibrary(String id, Severity severity, String title) {
      super(id, severity, title);
    }

    @Override
    final List<Finding> run(Comparison comparison) {
      List<Finding> findings = new ArrayList<>();
      comparison.libraries().forEach(pair -> compare(comparison, pair, findings));
      return findings;
    }

    abstract void compare(Comparison comparison, Comparison.LibraryPair pair, List<Finding> findings);
  }

  /** The names in {@code a} that are not in {@code b}, in a's order. */
  static List<String> minus(List<String> a, List<String> b) {
    List<String> result = new ArrayList<>(a);
    result.removeAll(b);
    return result;
  }

  static String bytes(long n) {
    return n + " bytes";
  }
}
