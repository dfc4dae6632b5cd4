package dev.tewheel.core.diff;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import java.util.List;

/** DIFF-EXPORTS: no exported dynamic symbol was removed (an ABI break: error); added exports are information. */
final class ExportsDiff extends DiffRule.PerLibrary {
  private static final int LISTED = 20;

  ExportsDiff() {
    super("DIFF-EXPORTS", Severity.ERROR,
        "no exported dynamic symbol was removed (an ABI break: error); added exports are information");
  }

  @Override
  void compare(Comparison comparison, Comparison.LibraryPair pair, List<Finding> findings) {
    List<String> before = List.copyOf(pair.before().definedSymbolNames());
    List<String> after = List.copyOf(pair.after().definedSymbolNames());
    List<String> removed = minus(before, after);
    List<String> added = minus(after, before);
    if (!removed.isEmpty()) {
      findings.add(finding(pair.origin(), count(removed) + " removed: " + list(removed), "every symbol "
              + pair.file().path() + " exported in the baseline",
          "restore the symbols (callers built against the baseline fail to load or to resolve them), or bump the"
              + " SONAME and say so in the release notes if the break is intended"));
    }
    if (!added.isEmpty()) {
      findings.add(finding(pair.origin(), count(added) + " added: " + list(added), "the baseline's exports",
          "nothing to fix: new API").withSeverity(Severity.INFO));
    }
  }

  private static String count(List<String> names) {
    return names.size() + " exported symbol" + (names.size() == 1 ? "" : "s");
  }

  private static String list(List<String> names) {
    return names.size() <= LISTED ? String.join(", ", names)
        : String.join(", ", names.subList(0, LISTED)) + " and " + (names.size() - LISTED) + " more (see report.json)";
  }
}
