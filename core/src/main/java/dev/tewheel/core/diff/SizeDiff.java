package dev.tewheel.core.diff;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import java.util.List;
import java.util.Locale;

/** DIFF-SIZE: the total size of wheel_lib's files grew by no more than maxGrowthPercent; else an error. */
final class SizeDiff extends DiffRule {
  SizeDiff() {
    super("DIFF-SIZE", Severity.ERROR, "the total size grew by no more than maxGrowthPercent");
  }

  @Override
  List<Finding> run(Comparison comparison) {
    double growth = comparison.growthPercent();
    String found = "total size " + bytes(comparison.baselineSize()) + " -> " + bytes(comparison.currentSize()) + " ("
        + (Double.isInfinite(growth) ? "from nothing" : String.format(Locale.ROOT, "%+.2f%%", growth)) + ")";
    String expected = "growth of at most " + String.format(Locale.ROOT, "%.2f%%", comparison.maxGrowthPercent())
        + " (maxGrowthPercent)";
    Finding size = finding(comparison.current().description(), found, expected,
        "find what grew in the files listed under DIFF-FILES (a grafted library, debug info, a new architecture);"
            + " raise maxGrowthPercent if the growth is intended");
    return List.of(growth > comparison.maxGrowthPercent() ? size : size.withSeverity(Severity.INFO));
  }
}
