package dev.tewheel.core.diff;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import java.util.List;

/** DIFF-BIND-NOW: each library kept its BIND_NOW (-z now) setting. */
final class BindNowDiff extends DiffRule.PerLibrary {
  BindNowDiff() {
    super("DIFF-BIND-NOW", Severity.WARNING, "each library kept its BIND_NOW (-z now) setting");
  }

  @Override
  void compare(Comparison comparison, Comparison.LibraryPair pair, List<Finding> findings) {
    boolean before = pair.before().bindNow();
    boolean after = pair.after().bindNow();
    if (before != after) {
      findings.add(finding(pair.origin(), after ? "BIND_NOW now set" : "BIND_NOW dropped",
          "BIND_NOW " + (before ? "set" : "not set") + " as in the baseline",
          "link with the same -z now/-z lazy as the baseline (BOLT needs -z now on libtransformer_engine.so)"));
    }
  }
}
