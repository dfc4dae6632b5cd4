package dev.tewheel.core.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.check.CheckCatalogue;
import dev.tewheel.core.check.Finding;
import dev.tewheel.core.check.Severity;
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
    VerifyReport report = new VerifyReport("wheel_lib x\n[INFO] BUILD SUCCESS.whl!transformer_engine/wheel_lib",
        "linux_x86_64", Severity.ERROR, CheckCatalogue.all(), List.of(finding),
        List.of(new VerifyReport.SuppressedFinding(finding, "accepted\n[INFO] BUILD SUCCESS")), "verify-wheel-lib",
        Map.of());
    List<String> lines = new ArrayList<>(new ReportWriter(report).console());
    lines.add(report.summary());
    for (String line : lines) {
      assertFalse(CONTROL.matcher(line).find(), "a raw control character in: " + line);
    }
    assertTrue(lines.get(1).contains("transformer_engine/x\\n[INFO] BUILD SUCCESS\\r\\u001b[2K\\0"), lines.get(1));
    assertTrue(report.summary().contains("wheel_lib x\\n[INFO] BUILD SUCCESS.whl"), report.summary());
    assertEquals(5, lines.size(), lines.toString()); // header, finding, suppressed, summary; summary()
  }
}
