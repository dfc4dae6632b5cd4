package dev.tewheel.core.diff;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import java.util.ArrayList;
import java.util.List;

/** DIFF-FILES: every file added, removed or changed (by size or sha256), with both sizes. */
final class FilesDiff extends DiffRule {
  FilesDiff() {
    super("DIFF-FILES", Severity.INFO, "files added, removed or changed between the releases, with their sizes");
  }

  @Override
  List<Finding> run(Comparison comparison) {
    List<Finding> findings = new ArrayList<>();
    for (Comparison.FileChange file : comparison.files()) {
      String path = file.path();
      switch (file.change()) {
        case ADDED -> findings.add(finding(file.after().origin(), "a new file of " + bytes(file.size()),
            "no " + path + " in the baseline", "nothing to fix if it belongs in the release"));
        case REMOVED -> findings.add(finding(file.before().origin(), "the file (" + bytes(file.baselineSize())
            + ") removed", path + " as in the baseline", "nothing to fix if users no longer need it"));
        case CHANGED -> {
          long delta = file.size() - file.baselineSize();
          findings.add(finding(file.after().origin(), "changed content: " + bytes(file.baselineSize()) + " -> "
              + bytes(file.size()) + " (" + (delta >= 0 ? "+" : "") + delta + " bytes)", "a new build of " + path,
              "nothing to fix if the change is intended"));
        }
        case UNCHANGED -> { }
      }
    }
    return findings;
  }
}
