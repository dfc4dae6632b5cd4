package dev.tewheel.cli;

import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.LogLine;
import dev.tewheel.core.gate.ReportWriter;
import dev.tewheel.core.goal.ConsoleReport;
import dev.tewheel.json.Printable;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * Where a gate command's lines go. The text (the goal's log, without Maven's level prefixes; the table's rows carry
 * their severity) goes to standard output, or to standard error when --format puts a report there; on GitHub
 * Actions the workflow commands go with the text (the runner reads both streams).
 */
final class Output implements ConsoleReport.Console {
  private final Io io;
  private final Format format;
  private final PrintStream text;

  Output(Io io, Format format) {
    this.io = io;
    this.format = format;
    this.text = format == Format.TEXT ? io.out() : io.err();
  }

  @Override
  public void row(LogLine line) {
    text.println(Printable.line(line.text()));
  }

  @Override
  public void info(String line) {
    text.println(Printable.line(line));
  }

  @Override
  public void warn(String line) {
    text.println("warning: " + Printable.line(line));
  }

  /**
   * Prints a report as the goal logs it, then its verdict line; with --format json|sarif|junit also the report in
   * that form on standard output.
   *
   * @param label what a passing verdict starts with (pack: "verify: ")
   * @param failure what a failing verdict adds (pack: where the new wheel was kept)
   */
  void report(GateReport report, Path reports, String label, String failure) {
    boolean onGitHub = ConsoleReport.onGitHubActions(io.environment());
    new ConsoleReport(this, onGitHub ? text::println : null, io.workingFolder())
        .print(report, ConsoleReport.reportFiles(report, reports));
    text.println(Printable.line(ConsoleReport.verdict(report, label, failure)));
    if (format != Format.TEXT) {
      io.out().print(format.render(new ReportWriter(report, io.workingFolder())));
      io.out().flush();
    }
  }

  /** Whether reports other than text go to standard output: then only one report may. */
  boolean reportOnStandardOutput() {
    return format != Format.TEXT;
  }

  /** A line of the text (progress, a note). */
  void line(String line) {
    info(line);
  }

  /** Several reports' texts are separated by an empty line. */
  void separator() {
    text.println();
  }
}
