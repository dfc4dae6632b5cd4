package dev.tewheel.core.goal;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.LogLine;
import dev.tewheel.core.gate.ReportWriter;
import dev.tewheel.core.verify.VerifyDetails;
import dev.tewheel.json.Printable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The console form of a gate's report, the one table-then-verdict block of assemble, verify, pack and diff, for the
 * goal's log and the command's output alike: the table (each finding at its own level), the warnings, verify's
 * suggested platform tag, the report files, and on GitHub Actions one workflow command per finding. Every line is
 * escaped by {@link Printable#text}.
 */
public final class ConsoleReport {
  /** Where the lines go. Each line is already printable. */
  public interface Console {
    /** A line of the table, at its finding's level (a heading or a suppressed finding at info). */
    void row(LogLine line);

    void info(String line);

    void warn(String line);
  }

  private final Console console;
  private final Consumer<String> workflow;
  private final Path base;

  /**
   * @param workflow where GitHub Actions workflow commands go; null when not on GitHub Actions
   * @param base the project's folder: files below it are shown relative to it
   */
  public ConsoleReport(Console console, Consumer<String> workflow, Path base) {
    this.console = console;
    this.workflow = workflow;
    this.base = base;
  }

  /** Whether this run is on GitHub Actions ({@value ReportWriter#GITHUB_ACTIONS} is true), given its environment. */
  public static boolean onGitHubActions(Function<String, String> environment) {
    return "true".equals(environment.apply(ReportWriter.GITHUB_ACTIONS));
  }

  /** Prints the report; each finding is printed in full. */
  public void print(GateReport report, List<Path> files) {
    print(report, files, finding -> null);
  }

  /**
   * Prints the report.
   *
   * @param files the report files written, if any
   * @param earlier given a finding, who printed it before in this build (then the table refers to that, and no
   *     annotation repeats it), or null
   */
  public void print(GateReport report, List<Path> files, Function<Finding, String> earlier) {
    ReportWriter writer = new ReportWriter(report, base);
    List<String> commands = new ArrayList<>();
    for (LogLine line : writer.table()) {
      Finding finding = line.finding();
      String before = finding == null ? null : earlier.apply(finding);
      if (before != null) {
        console.info(Printable.text("  " + finding.checkId() + " on " + writer.location(finding) + ": as "
            + before + " reported above"));
        continue; // its annotation too was printed then
      }
      console.row(line);
      if (finding != null && workflow != null) {
        commands.add(writer.workflowCommand(finding));
      }
    }
    writer.warnings().forEach(console::warn);
    suggestion(report).forEach(console::info);
    if (!files.isEmpty()) {
      console.info(Printable.text("reports: " + String.join(", ",
          files.stream().map(Path::toString).toList())));
    }
    commands.forEach(workflow == null ? line -> {} : workflow);
  }

  /** "suggested platform tag: manylinux_2_28_x86_64", then what keeps it from a more compatible one (verify's reports). */
  public static List<String> suggestion(GateReport report) {
    if (!(report.details() instanceof VerifyDetails details) || details.suggestion() == null) {
      return List.of();
    }
    List<String> lines = new ArrayList<>();
    lines.add(Printable.text("suggested platform tag: " + details.suggestion().tag()));
    details.suggestion().limits().forEach(limit -> lines.add(Printable.text("  limited by " + limit)));
    return lines;
  }

  /**
   * The verdict line: {@code label} and the summary when the report passed, else the summary and what
   * {@code failure} adds (pack: where the new wheel was kept).
   */
  public static String verdict(GateReport report, String label, String failure) {
    return Printable.text(report.passed() ? label + report.summary() : report.summary() + failure);
  }

  /** The report files a run wrote into {@code folder}, in the order {@link ReportWriter#write} writes them. */
  public static List<Path> reportFiles(GateReport report, Path folder) {
    return folder == null ? List.of() : List.of(folder.resolve(report.kind().jsonFileName()),
        folder.resolve(report.kind().junitFileName()), folder.resolve(report.kind().sarifFileName()));
  }
}
