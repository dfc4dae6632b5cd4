package dev.tewheel.core.diff;

import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.BaseRule;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.ElfFile;
import java.io.IOException;
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

  /**
   * A rule about a list of names each library has (its exports, DT_NEEDED entries, CUDA architectures): the list is
   * read on both sides here, and the rule is handed what the baseline has that this release lacks, and the reverse.
   */
  abstract static class PerLibraryNames extends PerLibrary {
    PerLibraryNames(String id, Severity severity, String title) {
      super(id, severity, title);
    }

    /** The names of one side's copy of the library, {@code file} of {@code side}, read as {@code elf}. */
    abstract List<String> names(Subject side, SubjectFile file, ElfFile elf) throws IOException;

    /**
     * Reports the difference of one pair, if any.
     *
     * @param before the baseline's names
     * @param removed the baseline's names this release lacks, in the baseline's order
     * @param added this release's names the baseline lacks, in this release's order
     */
    abstract void compare(Comparison.LibraryPair pair, List<String> before, List<String> removed, List<String> added,
        List<Finding> findings);

    @Override
    final void compare(Comparison comparison, Comparison.LibraryPair pair, List<Finding> findings) {
      List<String> before;
      List<String> after;
      try {
        before = names(comparison.baseline(), pair.baselineFile(), pair.before());
        after = names(comparison.current(), pair.file(), pair.after());
      } catch (IOException e) {
        return; // only GPU code is read here, and verify's GPU-ARCHS reports a fat binary it cannot read
      }
      compare(pair, before, minus(before, after), minus(after, before), findings);
    }
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
