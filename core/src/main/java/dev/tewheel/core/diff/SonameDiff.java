package dev.tewheel.core.diff;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import java.util.List;

/** DIFF-SONAME: no library changed its SONAME (loaders and dependants look it up by name). */
final class SonameDiff extends DiffRule.PerLibrary {
  SonameDiff() {
    super("DIFF-SONAME", Severity.ERROR, "no library changed its SONAME (loaders and dependants look it up by name)");
  }

  @Override
  void compare(Comparison comparison, Comparison.LibraryPair pair, List<Finding> findings) {
    if (!pair.before().soname().equals(pair.after().soname())) {
      findings.add(finding(pair.origin(), "SONAME " + pair.after().soname().orElse("(none)"), "SONAME "
              + pair.before().soname().orElse("(none)") + " as in the baseline",
          "keep the SONAME unless the ABI broke on purpose; then every dependant must be rebuilt and the release"
              + " notes must say so"));
    }
  }
}
