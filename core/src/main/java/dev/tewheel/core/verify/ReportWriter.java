package dev.tewheel.core.verify;

import dev.tewheel.bundle.io.AtomicFiles;
import dev.tewheel.json.Json;
import dev.tewheel.core.check.Finding;
import dev.tewheel.core.check.Rule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The three forms of a verify report: a console table with a summary line, {@code report.json} (schema in
 * docs/goals/verify-wheel-lib.md) and a JUnit XML file that CI servers display, one testcase per check and file.
 *
 * <p>File names come from the wheel or folder being checked, so the console shows them through {@link #printable}:
 * a newline in an entry name must not print a fake {@code [INFO] BUILD SUCCESS} line, an escape sequence must not
 * reach the terminal. JSON escapes by itself; XML drops what it cannot hold.
 */
public final class ReportWriter {
  public static final String JSON = "report.json";
  public static final String JUNIT = "TEST-te-verify-wheel-lib.xml";
  private static final int FILE_WIDTH = 60;

  private final VerifyReport report;

  public ReportWriter(VerifyReport report) {
    this.report = report;
  }

  /** The table: one row per finding (ID, severity, file, message), suppressed ones with their reasons, the summary. */
  public List<String> console() {
    List<String> lines = new ArrayList<>();
    if (!report.findings().isEmpty()) {
      lines.add(String.format("%-24s %-8s %-" + FILE_WIDTH + "s %s", "ID", "SEVERITY", "FILE", "MESSAGE"));
      for (Finding f : report.findings()) {
        lines.add(String.format("%-24s %-8s %-" + FILE_WIDTH + "s %s", f.checkId(), f.severity(),
            shorten(printable(f.file())), printable("found " + f.found() + "; expected " + f.expected() + ". Fix: "
                + f.fix())));
      }
    }
    for (VerifyReport.SuppressedFinding s : report.suppressed()) {
      lines.add(printable(String.format("suppressed %s on %s: %s", s.finding().checkId(), s.finding().file(),
          s.reason())));
    }
    lines.add(report.summary());
    return lines;
  }

  /**
   * The lines a goal logs as warnings, apart from the table: one per suppression that accepted no finding (a
   * misspelled file or ID, or a finding fixed since), so that no configured suppression is kept silently.
   */
  public List<String> warnings() {
    List<String> lines = new ArrayList<>();
    for (Suppression s : report.unmatchedSuppressions()) {
      lines.add(printable("suppression '" + s + "' matched no finding of te:" + report.goal() + " on "
          + report.subject() + "; remove it, or correct its ID, file or line (the file must be part of the finding's"
          + " file, the line its :N)"));
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

  /** Writes report.json and the JUnit XML into the folder, each beside its target and renamed into place. */
  public void write(Path folder) throws IOException {
    Files.createDirectories(folder);
    AtomicFiles.writeString(folder.resolve(JSON), json());
    AtomicFiles.writeString(folder.resolve(junitFileName()), junit());
  }

  /** TEST-te-verify-wheel-lib.xml, or TEST-te-diff-wheel.xml for the diff. */
  public String junitFileName() {
    return "TEST-te-" + report.goal() + ".xml";
  }

  public String json() {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("schema", report.goal().equals("verify-wheel-lib") ? "te-wheel-verify-report/1"
        : "te-wheel-" + report.goal().replace("-wheel", "") + "-report/1");
    root.put("subject", report.subject());
    root.put("platformTag", report.platformTag());
    root.put("failOn", report.failOn().name().toLowerCase(Locale.ROOT));
    root.put("passed", report.passed());
    Map<String, Object> counts = new LinkedHashMap<>();
    counts.put("error", report.count(dev.tewheel.core.check.Severity.ERROR));
    counts.put("warning", report.count(dev.tewheel.core.check.Severity.WARNING));
    counts.put("info", report.count(dev.tewheel.core.check.Severity.INFO));
    counts.put("suppressed", (long) report.suppressed().size());
    root.put("counts", counts);
    List<Object> checks = new ArrayList<>();
    for (Rule check : report.checks()) {
      Map<String, Object> c = new LinkedHashMap<>();
      c.put("id", check.id());
      c.put("title", check.title());
      c.put("defaultSeverity", check.defaultSeverity().name().toLowerCase(Locale.ROOT));
      checks.add(c);
    }
    root.put("checks", checks);
    root.putAll(report.details());
    List<Object> findings = new ArrayList<>();
    report.findings().forEach(f -> findings.add(finding(f, null)));
    root.put("findings", findings);
    List<Object> suppressed = new ArrayList<>();
    report.suppressed().forEach(s -> suppressed.add(finding(s.finding(), s.reason())));
    root.put("suppressed", suppressed);
    List<Object> unmatched = new ArrayList<>();
    for (Suppression s : report.unmatchedSuppressions()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", s.checkId());
      m.put("file", s.file());
      m.put("line", s.line());
      m.put("reason", s.reason());
      unmatched.add(m);
    }
    root.put("unmatchedSuppressions", unmatched);
    return Json.write(root);
  }

  private static Map<String, Object> finding(Finding f, String reason) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", f.checkId());
    m.put("severity", f.severity().name().toLowerCase(Locale.ROOT));
    m.put("file", f.file());
    m.put("found", f.found());
    m.put("expected", f.expected());
    m.put("fix", f.fix());
    m.put("message", f.message());
    if (reason != null) {
      m.put("reason", reason);
    }
    return m;
  }

  /** JUnit XML: a passing testcase per check without findings; per finding, a failure, or output below failOn. */
  public String junit() {
    StringBuilder cases = new StringBuilder();
    int tests = 0;
    int failures = 0;
    int skipped = 0;
    for (Rule check : report.checks()) {
      List<Finding> mine = report.findings().stream().filter(f -> f.checkId().equals(check.id())).toList();
      List<VerifyReport.SuppressedFinding> accepted =
          report.suppressed().stream().filter(s -> s.finding().checkId().equals(check.id())).toList();
      if (mine.isEmpty() && accepted.isEmpty()) {
        tests++;
        cases.append("  <testcase classname=\"").append(xml(check.id())).append("\" name=\"")
            .append(xml(check.title())).append("\"/>\n");
      }
      for (Finding f : mine) {
        tests++;
        cases.append("  <testcase classname=\"").append(xml(check.id())).append("\" name=\"").append(xml(f.file()))
            .append("\">\n");
        if (f.severity().atLeast(report.failOn())) {
          failures++;
          cases.append("    <failure type=\"").append(f.severity()).append("\" message=\"").append(xml(f.found()))
              .append("\">").append(xml(f.message())).append("</failure>\n");
        } else {
          cases.append("    <system-out>").append(xml(f.message())).append("</system-out>\n");
        }
        cases.append("  </testcase>\n");
      }
      for (VerifyReport.SuppressedFinding s : accepted) {
        tests++;
        skipped++;
        cases.append("  <testcase classname=\"").append(xml(check.id())).append("\" name=\"")
            .append(xml(s.finding().file())).append("\">\n    <skipped message=\"suppressed: ")
            .append(xml(s.reason())).append("\"/>\n  </testcase>\n");
      }
    }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"te:" + report.goal() + "\" tests=\"" + tests
        + "\" failures=\"" + failures + "\" errors=\"0\" skipped=\"" + skipped + "\">\n"
        + "  <properties>\n    <property name=\"subject\" value=\"" + xml(report.subject()) + "\"/>\n"
        + "    <property name=\"platformTag\" value=\"" + xml(report.platformTag()) + "\"/>\n  </properties>\n"
        + cases + "</testsuite>\n";
  }

  private static String shorten(String file) {
    return file.length() <= FILE_WIDTH ? file : "…" + file.substring(file.length() - FILE_WIDTH + 1);
  }

  private static String xml(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        default -> {
          if (c >= 0x20 || c == '\n' || c == '\t') {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }
}
