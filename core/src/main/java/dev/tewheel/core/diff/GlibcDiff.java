package dev.tewheel.core.diff;

import dev.tewheel.core.policy.ToolchainVersion;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import java.util.List;
import java.util.Map;

/**
 * DIFF-GLIBC: the highest GLIBC_/GLIBCXX_/CXXABI_ version each library needs ({@link ToolchainVersion}, as PLATFORM
 * reads them) did not go up (warning); down is information.
 */
final class GlibcDiff extends DiffRule.PerLibrary {
  GlibcDiff() {
    super("DIFF-GLIBC", Severity.WARNING,
        "the highest GLIBC_/GLIBCXX_/CXXABI_ version each library needs did not change");
  }

  @Override
  void compare(Comparison comparison, Comparison.LibraryPair pair, List<Finding> findings) {
    Map<String, String> before = ToolchainVersion.ceilings(pair.before());
    Map<String, String> after = ToolchainVersion.ceilings(pair.after());
    for (String family : List.of("GLIBC", "GLIBCXX", "CXXABI")) {
      String x = before.get(family);
      String y = after.get(family);
      if (x != null && y != null && !x.equals(y) || (x == null) != (y == null)) {
        boolean raised = y != null && (x == null || ToolchainVersion.newer(y, x));
        Finding f = finding(pair.origin(), family + " ceiling " + (x == null ? "none" : family + "_" + x) + " -> "
                + (y == null ? "none" : family + "_" + y), family + " ceiling as in the baseline",
            raised ? "build on the same (oldest supported) system as the baseline, or check the platform tag still"
                + " allows " + family + "_" + y + " (verify's PLATFORM)" : "nothing to fix: it needs less now");
        findings.add(raised ? f : f.withSeverity(Severity.INFO));
      }
    }
  }
}
