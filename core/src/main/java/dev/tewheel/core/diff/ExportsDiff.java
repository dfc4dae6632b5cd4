package dev.tewheel.core.diff;

import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.ElfFile;
import java.util.List;

/** DIFF-EXPORTS: no exported dynamic symbol was removed (an ABI break: error); added exports are information. */
final class ExportsDiff extends DiffRule.PerLibraryNames {
  private static final int LISTED = 20;

  ExportsDiff() {
    super("DIFF-EXPORTS", Severity.ERROR,
        "no exported dynamic symbol was removed (an ABI break: error); added exports are information");
  }

  @Override
  List<String> names(Subject side, SubjectFile file, ElfFile elf) {
    return List.copyOf(elf.definedSymbolNames());
  }

  @Override
  void compare(Comparison.LibraryPair pair, List<String> before, List<String> removed, List<String> added,
      List<Finding> findings) {
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
