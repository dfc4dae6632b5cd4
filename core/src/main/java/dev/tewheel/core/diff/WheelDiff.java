package dev.tewheel.core.diff;

import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.gate.Gate;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.ReportKind;
import dev.tewheel.core.gate.ReportWriter;
import dev.tewheel.core.verify.FolderSubject;
import dev.tewheel.core.verify.WheelSubject;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Compares a release's wheel_lib with the previous release's, as japicmp and revapi compare Java APIs: files
 * added, removed and changed; per library its SONAME, DT_NEEDED, exported symbols, GLIBC/GLIBCXX ceilings,
 * BIND_NOW and CUDA architectures; the total size against a growth budget. The {@link DiffRules} are judged by the
 * one {@link Gate}, so the report prints, writes its files and fails exactly as verify's does.
 */
public final class WheelDiff {
  /** Compares and writes the reports when a report folder is given. */
  public GateReport diff(DiffRequest request) throws IOException {
    try (Side baseline = Side.open(request.baseline(), request); Side current = Side.open(request.current(), request)) {
      Comparison comparison = new Comparison(baseline.subject, current.subject, request.maxGrowthPercent());
      GateReport report;
      try {
        report = Gate.judge(ReportKind.DIFF, DiffRules.RULES, comparison, current.subject.description()
            + " against " + baseline.subject.description(), request.policy()).withDetails(details(comparison));
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
      if (request.reportDirectory() != null) {
        new ReportWriter(report).write(request.reportDirectory());
      }
      return report;
    }
  }

  /** report.json's files and sizes, as docs/schema/diff.schema.json describes them. */
  private static Map<String, Object> details(Comparison comparison) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("baseline", comparison.baseline().description());
    details.put("current", comparison.current().description());
    List<Object> files = new ArrayList<>();
    for (Comparison.FileChange file : comparison.files()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("path", file.path());
      entry.put("change", file.change().name().toLowerCase(Locale.ROOT));
      entry.put("baselineSize", file.before() == null ? null : file.baselineSize());
      entry.put("size", file.after() == null ? null : file.size());
      files.add(entry);
    }
    details.put("files", files);
    double growth = comparison.growthPercent();
    Map<String, Object> total = new LinkedHashMap<>();
    total.put("baseline", comparison.baselineSize());
    total.put("current", comparison.currentSize());
    total.put("growthPercent", Double.isInfinite(growth) ? null : percent(growth));
    total.put("maxGrowthPercent", percent(comparison.maxGrowthPercent()));
    details.put("totalSize", total);
    return details;
  }

  /** A percentage as a JSON number with two decimals, as the console prints it. */
  private static BigDecimal percent(double value) {
    return BigDecimal.valueOf(value).setScale(2, RoundingMode.HALF_EVEN);
  }

  /** One side of the comparison, open until closed (a wheel keeps its archive open). */
  private static final class Side implements Closeable {
    final Subject subject;
    private final Closeable resource;

    private Side(Subject subject, Closeable resource) {
      this.subject = subject;
      this.resource = resource;
    }

    static Side open(Path path, DiffRequest request) throws IOException {
      if (Files.isDirectory(path)) {
        return new Side(FolderSubject.read(path, request.layout(), CheckSettings.defaults()), null);
      }
      if (!Files.isRegularFile(path)) {
        throw new IOException(path + " is neither a .whl nor a wheel_lib folder");
      }
      WheelSubject wheel = WheelSubject.open(path, request.wheelLibPath(), request.layout(), CheckSettings.defaults());
      return new Side(wheel.subject(), wheel);
    }

    @Override
    public void close() throws IOException {
      if (resource != null) {
        resource.close();
      }
    }
  }
}
