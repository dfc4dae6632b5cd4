package dev.tewheel.core.gate;

import dev.tewheel.json.Printable;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * JUnit XML that CI servers display: a passing testcase per rule without findings; per finding a failure, or
 * output below failOn; suppressed findings skipped. Names are unique within a rule (a second finding on the same
 * place gets " (2)"), and each rule's run time is on its first testcase, so the suite's time is the gate's.
 *
 * <p>Every text goes through the one rule ({@link Printable#text}) before the markup is escaped: what CI shows
 * matches the console, and whatever a name holds the file is well-formed XML 1.0 (which has no place for C0
 * controls but tab and line breaks, lone surrogates, U+FFFE or U+FFFF).
 */
final class JunitReport {
  private JunitReport() {}

  static String of(GateReport report) {
    StringBuilder cases = new StringBuilder();
    int tests = 0;
    int failures = 0;
    int skipped = 0;
    Duration total = Duration.ZERO;
    for (Rule rule : report.rules()) {
      List<Finding> mine = report.findings().stream().filter(f -> f.checkId().equals(rule.id())).toList();
      List<GateReport.SuppressedFinding> accepted =
          report.suppressed().stream().filter(s -> s.finding().checkId().equals(rule.id())).toList();
      Duration time = report.time(rule.id());
      total = total.plus(time);
      Set<String> names = new HashSet<>();
      if (mine.isEmpty() && accepted.isEmpty()) {
        tests++;
        open(cases, rule, rule.title(), time).append("/>\n");
        continue;
      }
      for (Finding f : mine) {
        tests++;
        open(cases, rule, unique(names, Printable.text(f.location())), time).append(">\n");
        time = Duration.ZERO;
        if (f.severity().atLeast(report.failOn())) {
          failures++;
          cases.append("    <failure type=\"").append(f.severity()).append("\" message=\"").append(xml(f.found()))
              .append("\">").append(xml(f.message())).append("</failure>\n");
        } else {
          cases.append("    <system-out>").append(xml(f.message())).append("</system-out>\n");
        }
        cases.append("  </testcase>\n");
      }
      for (GateReport.SuppressedFinding s : accepted) {
        tests++;
        skipped++;
        open(cases, rule, unique(names, Printable.text(s.finding().location())), time)
            .append(">\n    <skipped message=\"suppressed: ")
            .append(xml(s.reason())).append("\"/>\n  </testcase>\n");
        time = Duration.ZERO;
      }
    }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"" + report.kind().goal() + "\" tests=\""
        + tests + "\" failures=\"" + failures + "\" errors=\"0\" skipped=\"" + skipped + "\" time=\""
        + seconds(total) + "\">\n"
        + "  <properties>\n    <property name=\"subject\" value=\"" + xml(report.subject()) + "\"/>\n"
        + "    <property name=\"platformTag\" value=\"" + xml(report.platformTag()) + "\"/>\n  </properties>\n"
        + cases + "</testsuite>\n";
  }

  private static StringBuilder open(StringBuilder cases, Rule rule, String name, Duration time) {
    return cases.append("  <testcase classname=\"").append(xml(rule.id())).append("\" name=\"").append(xml(name))
        .append("\" time=\"").append(seconds(time)).append('"');
  }

  private static String unique(Set<String> names, String name) {
    String candidate = name;
    for (int n = 2; !names.add(candidate); n++) {
      candidate = name + " (" + n + ")";
    }
    return candidate;
  }

  private static String seconds(Duration time) {
    return String.format(Locale.ROOT, "%.3f", time.toNanos() / 1e9);
  }

  /** {@code text} made printable, then escaped for an attribute or element. */
  static String xml(String text) {
    String printable = Printable.text(text);
    StringBuilder out = new StringBuilder(printable.length());
    for (int i = 0; i < printable.length(); i++) {
      char c = printable.charAt(i);
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
