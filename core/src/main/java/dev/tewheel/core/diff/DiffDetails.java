package dev.tewheel.core.diff;

import static dev.tewheel.json.Json.object;

import dev.tewheel.core.gate.ReportDetails;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * diff's report.json details, as docs/schema/diff.schema.json describes them.
 *
 * @param baseline the previous release's wheel_lib, for people
 * @param current this release's wheel_lib, for people
 * @param files every path of either side and what became of it
 * @param baselineSize the baseline's total size in bytes
 * @param currentSize this release's total size in bytes
 * @param growthPercent the growth in percent of the baseline's size, two decimals; null from an empty baseline
 * @param maxGrowthPercent the budget, two decimals
 */
public record DiffDetails(String baseline, String current, List<Comparison.FileChange> files, long baselineSize,
    long currentSize, BigDecimal growthPercent, BigDecimal maxGrowthPercent) implements ReportDetails {
  public DiffDetails {
    files = List.copyOf(files);
  }

  static DiffDetails of(Comparison comparison) {
    double growth = comparison.growthPercent();
    return new DiffDetails(comparison.baseline().description(), comparison.current().description(),
        comparison.files(), comparison.baselineSize(), comparison.currentSize(),
        Double.isInfinite(growth) ? null : percent(growth), percent(comparison.maxGrowthPercent()));
  }

  /** A percentage as a JSON number with two decimals, as the console prints it. */
  private static BigDecimal percent(double value) {
    return BigDecimal.valueOf(value).setScale(2, RoundingMode.HALF_EVEN);
  }

  @Override
  public Map<String, Object> json() {
    return object("baseline", baseline, "current", current, "files", files.stream().map(DiffDetails::entry).toList(),
        "totalSize", object("baseline", baselineSize, "current", currentSize, "growthPercent", growthPercent,
            "maxGrowthPercent", maxGrowthPercent));
  }

  private static Map<String, Object> entry(Comparison.FileChange file) {
    return object("path", file.path(), "change", file.change().name().toLowerCase(Locale.ROOT),
        "baselineSize", file.before() == null ? null : file.baselineSize(),
        "size", file.after() == null ? null : file.size());
  }
}
