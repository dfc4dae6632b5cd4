package dev.tewheel.core.diff;

import dev.tewheel.core.gate.ReportDetails;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("baseline", baseline);
    json.put("current", current);
    List<Object> entries = new ArrayList<>();
    for (Comparison.FileChange file : files) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("path", file.path());
      entry.put("change", file.change().name().toLowerCase(Locale.ROOT));
      entry.put("baselineSize", file.before() == null ? null : file.baselineSize());
      entry.put("size", file.after() == null ? null : file.size());
      entries.add(entry);
    }
    json.put("files", entries);
    Map<String, Object> total = new LinkedHashMap<>();
    total.put("baseline", baselineSize);
    total.put("current", currentSize);
    total.put("growthPercent", growthPercent);
    total.put("maxGrowthPercent", maxGrowthPercent);
    json.put("totalSize", total);
    return json;
  }
}
