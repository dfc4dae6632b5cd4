package dev.tewheel.core.release;

import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.ReportDetails;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.json.Json;
import java.util.List;
import java.util.Map;

/** release's report.json details: each wheel with its own verdict, as docs/schema/release.schema.json says. */
record ReleaseDetails(List<String> files, List<GateReport> reports) implements ReportDetails {
  @Override
  public Map<String, Object> json() {
    List<Object> wheels = new java.util.ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      GateReport r = reports.get(i);
      wheels.add(Json.object("file", files.get(i), "passed", r.passed(), "errors", r.count(Severity.ERROR),
          "warnings", r.count(Severity.WARNING), "subject", r.subject()));
    }
    return Json.object("wheels", wheels);
  }
}
