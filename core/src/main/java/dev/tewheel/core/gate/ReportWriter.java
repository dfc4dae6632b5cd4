package dev.tewheel.core.gate;

import dev.tewheel.bundle.io.AtomicFiles;
import dev.tewheel.json.Printable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Every form of a {@link GateReport}, all written from the one report: the console table ({@link #table}), the
 * summary and warning lines, report.json (with a shipped JSON Schema per kind), JUnit XML, SARIF 2.1.0 and GitHub
 * Actions workflow commands.
 *
 * <p>File names come from the wheel or folder being checked, so every text form shows them through the one rule,
 * {@link Printable#text}: a newline in an entry name must not print a fake {@code [INFO] BUILD SUCCESS} line, an
 * escape sequence must not reach the terminal, a bidi override must not reorder a line, and GitHub's runner must not
 * read a command in it. The JSON forms (report.json, SARIF) keep the exact strings, which JSON writes as ASCII
 * escapes.
 */
public final class ReportWriter {
  /** The environment variable GitHub Actions sets to {@code true}: then goals print {@link #workflowCommands}. */
  public static final String GITHUB_ACTIONS = WorkflowCommands.ENVIRONMENT;

  private final GateReport report;
  private final Places places;

  public ReportWriter(GateReport report) {
    this(report, null);
  }

  /** @param base the project's folder: files below it are shown relative to it; null: as the findings name them */
  public ReportWriter(GateReport report, Path base) {
    this.report = report;
    this.places = new Places(base);
  }

  /** The table: one row per finding at its own level, then the suppressed ones; no summary (see {@link #summary}). */
  public List<LogLine> table() {
    return ConsoleTable.of(report, places);
  }

  /** Where a finding is, as the table shows it: relative to the project's folder when below it, with its line. */
  public String location(Finding finding) {
    return places.location(finding);
  }

  /** The verdict line, e.g. {@code PASSED: 0 errors, …}. */
  public String summary() {
    return report.summary();
  }

  /**
   * The lines a goal logs as warnings, apart from the table: one per suppression that accepted no finding (a
   * misspelled file or ID, or a finding fixed since), so that no configured suppression is kept silently.
   */
  public List<String> warnings() {
    List<String> lines = new ArrayList<>();
    for (Suppression s : report.unmatchedSuppressions()) {
      lines.add(Printable.text("suppression '" + s + "' matched no finding of " + report.kind().goal() + " on "
          + report.subject() + "; remove it, or correct its ID, file or line (the file must be part of the finding's"
          + " file, the line the finding's line)"));
    }
    return lines;
  }

  /**
   * Writes report.json, the JUnit XML and the SARIF file into the folder, each beside its target and renamed into
   * place.
   *
   * @return the files written
   */
  public List<Path> write(Path folder) throws IOException {
    Files.createDirectories(folder);
    ReportKind kind = report.kind();
    List<Path> written = List.of(folder.resolve(kind.jsonFileName()), folder.resolve(kind.junitFileName()),
        folder.resolve(kind.sarifFileName()));
    AtomicFiles.writeString(written.get(0), json());
    AtomicFiles.writeString(written.get(1), junit());
    AtomicFiles.writeString(written.get(2), sarif());
    return written;
  }

  /**
   * Writes {@code report}'s files into {@code folder} when one is given: the one step assemble, verify, pack and
   * diff end with.
   *
   * @param base the project's folder ({@link #ReportWriter(GateReport, Path)})
   * @return the files written; none without a folder
   */
  public static List<Path> write(GateReport report, Path folder, Path base) throws IOException {
    return folder == null ? List.of() : new ReportWriter(report, base).write(folder);
  }

  public String json() {
    return JsonReport.of(report);
  }

  public String junit() {
    return JunitReport.of(report);
  }

  public String sarif() {
    return SarifReport.of(report, places);
  }

  /** One GitHub Actions workflow command per finding, for a run where {@value #GITHUB_ACTIONS} is {@code true}. */
  public List<String> workflowCommands() {
    return WorkflowCommands.of(report, places);
  }

  /** The workflow command of one finding of this report. */
  public String workflowCommand(Finding finding) {
    return WorkflowCommands.of(finding, places);
  }
}
