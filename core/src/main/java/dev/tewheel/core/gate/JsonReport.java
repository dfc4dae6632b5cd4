package dev.tewheel.core.gate;

import dev.tewheel.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * report.json: the whole verdict, as the kind's JSON Schema (docs/schema/&lt;kind&gt;.schema.json, shipped in the
 * plugin jar) describes it. Files are as the findings name them; a line is a number of its own.
 */
final class JsonReport {
  private JsonReport() {}

  static String of(GateReport report) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("schema", report.kind().schemaId());
    root.put("subject", report.subject());
    root.put("platformTag", report.platformTag());
    root.put("failOn", lower(report.failOn()));
    root.put("passed", report.passed());
    Map<String, Object> counts = new LinkedHashMap<>();
    counts.put("error", report.count(Severity.ERROR));
    counts.put("warning", report.count(Severity.WARNING));
    counts.put("info", report.count(Severity.INFO));
    counts.put("suppressed", (long) report.suppressed().size());
    root.put("counts", counts);
    List<Object> checks = new ArrayList<>();
    for (Rule check : report.rules()) {
      Map<String, Object> c = new LinkedHashMap<>();
      c.put("id", check.id());
      c.put("title", check.title());
      c.put("defaultSeverity", lower(check.defaultSeverity()));
      checks.add(c);
    }
    root.put("checks", checks);
    root.putAll(report.details().json());
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
    m.put("severity", lower(f.severity()));
    m.put("file", f.file());
    m.put("line", f.line());
    m.put("found", f.found());
    m.put("expected", f.expected());
    m.put("fix", f.fix());
    m.put("message", f.message());
    if (reason != null) {
      m.put("reason", reason);
    }
    return m;
  }

  static String lower(Severity severity) {
    return severity.name().toLowerCase(Locale.ROOT);
  }
}
