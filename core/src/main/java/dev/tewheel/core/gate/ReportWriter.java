package dev.tewheel.core.gate;

import dev.tewheel.bundle.io.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Every form of a {@link GateReport}, all written from the one report: the console table ({@link #table}), the
 * summary and warning lines, report.json (with a shipped JSON Schema per kind), JUnit XML, SARIF 2.1.0 and GitHub
 * Actions workflow commands.
 *
 * <p>File names come from the wheel or folder being checked, so the console shows them through {@link #printable}:
 * a newline in an entry name must not print a fake {@code [INFO] BUILD SUCCESS} line, an escape sequence must not
 * reach the terminal. JSON escapes by itself; XML drops what it cannot hold.
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
      lines.add(printable("suppression '" + s + "' matched no finding of " + report.kind().goal() + " on "
          + report.subject() + "; remove it, or correct its ID, file or line (the file must be part of the finding's"
          + " file, the line the finding's line)"));
    }
    return lines;
  }

  /**
   * The text with every control character escaped, for a console or log line: {@code \n}, {@code \r},
   * {@code \t}, {@code \0}, else {@code \u001b} style (C0, DEL, C1, and the Unicode line and paragraph
   * separators). The one place console output is made safe.
   */
  public static String printable(String text) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean control = c < 0x20 || c >= 0x7f && c <= 0x9f || c == 0x2028 || c == 0x2029;
      if (control && out == null) {
        out = new StringBuilder(text.length() + 16).append(text, 0, i);
      }
      if (out == null) {
        continue;
      }
      if (!control) {
        out.append(c);
      } else {
        switch (c) {
          case '\n' -> out.append("\\n");
          case '\r' -> out.append("\\r");
          case '\t' -> out.append("\\t");
          case '\0' -> out.append("\\0");
          default -> out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
        }
      }
    }
    return out == null ? text : out.toString();
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
