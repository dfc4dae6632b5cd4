package dev.tewheel.core.gate;

import static dev.tewheel.json.Json.object;

import dev.tewheel.json.Json;
import java.util.Locale;
import java.util.Map;

/**
 * report.json: the whole verdict, as the kind's JSON Schema (docs/schema/&lt;kind&gt;.schema.json, shipped in the
 * plugin jar) describes it. Files are as the findings name them; a line is a number of its own.
 */
final class JsonReport {
  private JsonReport() {}

  static String of(GateReport report) {
    Map<String, Object> root = object("schema", report.kind().schemaId(), "subject", report.subject(), "platformTag",
        report.platformTag(), "failOn", lower(report.failOn()), "passed", report.passed(), "counts", object(
            "error", report.count(Severity.ERROR), "warning", report.count(Severity.WARNING),
            "info", report.count(Severity.INFO), "suppressed", report.totals().suppressed()),
        "checks", report.rules().stream().map(r -> object("id", r.id(), "title", r.title(), "defaultSeverity",
            lower(r.defaultSeverity()))).toList());
    root.putAll(report.details().json());
    root.put("findings", report.findings().stream().map(f -> finding(f, null)).toList());
    root.put("suppressed", report.suppressed().stream().map(s -> finding(s.finding(), s.reason())).toList());
    root.put("unmatchedSuppressions", report.unmatchedSuppressions().stream().map(s -> object("id", s.checkId(),
        "file", s.file(), "line", s.line(), "reason", s.reason())).toList());
    return Json.write(root);
  }

  private static Map<String, Object> finding(Finding f, String reason) {
    Map<String, Object> m = object("id", f.checkId(), "severity", lower(f.severity()), "file", f.file(), "line",
        f.line(), "found", f.found(), "expected", f.expected(), "fix", f.fix(), "message", f.message());
    if (reason != null) {
      m.put("reason", reason);
    }
    return m;
  }

  static String lower(Severity severity) {
    return severity.name().toLowerCase(Locale.ROOT);
  }
}
