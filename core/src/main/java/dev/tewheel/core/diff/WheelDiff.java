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
import java.nio.file.Files;
import java.nio.file.Path;

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
      Comparison comparison = Comparison.of(baseline.subject, current.subject, request.maxGrowthPercent());
      GateReport report;
      try {
        report = Gate.judge(ReportKind.DIFF, DiffRules.RULES, comparison, current.subject.description()
            + " against " + baseline.subject.description(), request.policy()).withDetails(DiffDetails.of(comparison));
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
      ReportWriter.write(report, request.reportDirectory(), request.projectBase());
      return report;
    }
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
