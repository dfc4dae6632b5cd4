package dev.tewheel.core.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.check.catalogue.CheckCatalogue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The console table: what an entry name holds is shown, never acted on by the terminal or the build log. */
@Timeout(30)
class ReportWriterTest {
  private static final Pattern CONTROL = Pattern.compile("[\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029]");

  @Test
  void newlinesAndControlCharactersInNamesAreEscapedInTheConsoleTable() {
    String name = "x.whl!transformer_engine/x\n[INFO] BUILD SUCCESS\r\u001b[2K\0";
    Finding finding = new Finding("WHEEL-PATHS", Severity.ERROR, name, "a control character in " + name,
        "no control characters", "rename it");
    GateReport report = new GateReport(ReportKind.VERIFY,
        "wheel_lib x\n[INFO] BUILD SUCCESS.whl!transformer_engine/wheel_lib", "linux_x86_64", Severity.ERROR,
        CheckCatalogue.all(), List.of(finding),
        List.of(new GateReport.SuppressedFinding(finding, "accepted\n[INFO] BUILD SUCCESS")), List.of(),
        ReportDetails.NONE, Map.of());
    List<String> lines = new ArrayList<>(new ReportWriter(report).table().stream().map(LogLine::text).toList());
    lines.add(report.summary());
    lines.add(report.summary());
    lines.addAll(new ReportWriter(report).workflowCommands());
    for (String line : lines) {
      assertFalse(CONTROL.matcher(line).find(), "a raw control character in: " + line);
    }
    assertTrue(lines.get(1).contains("transformer_engine/x\\n[INFO] BUILD SUCCESS\\r\\u001b[2K\\0"), lines.get(1));
    assertTrue(report.summary().contains("wheel_lib x\\n[INFO] BUILD SUCCESS.whl"), report.summary());
    assertEquals(6, lines.size(), lines.toString()); // header, finding, suppressed, summary twice, one command
  }
}
