package dev.tewheel.core.gate;

import dev.tewheel.json.Printable;
import java.util.ArrayList;
import java.util.List;

/**
 * The console form of a report: one row per finding (ID, severity, file, message) logged at the finding's
 * severity, then the suppressed ones with their reasons. The summary line is the goal's to log (it decides
 * whether the goal fails), so it is not part of the table.
 */
final class ConsoleTable {
  private static final int FILE_WIDTH = 60;
  private static final String ROW = "%-24s %-8s %-" + FILE_WIDTH + "s %s";

  private ConsoleTable() {}

  static List<LogLine> of(GateReport report, Places places) {
    List<LogLine> lines = new ArrayList<>();
    if (!report.findings().isEmpty()) {
      lines.add(new LogLine(Severity.INFO, String.format(ROW, "ID", "SEVERITY", "FILE", "MESSAGE"), null));
      for (Finding f : report.findings()) {
        // A long path is printed whole, never cut from the left: the file is what a reader needs most.
        lines.add(new LogLine(f.severity(), Printable.text(String.format(ROW, f.checkId(), f.severity(),
            places.location(f), f.text())), f));
      }
    }
    for (GateReport.SuppressedFinding s : report.suppressed()) {
      lines.add(new LogLine(Severity.INFO, Printable.text(String.format("suppressed %s on %s: %s",
          s.finding().checkId(), places.location(s.finding()), s.reason())), null));
    }
    return lines;
  }
}
