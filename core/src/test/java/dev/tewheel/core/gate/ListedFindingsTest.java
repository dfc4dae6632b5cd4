package dev.tewheel.core.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.verify.VerifyDetails;
import dev.tewheel.json.Json;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rule that finds 150,001 things (a floor folder of as many broken libraries) once printed 150,001 console rows and
 * wrote gigabytes of reports: the gate lists at most {@link Gate#MAX_LISTED_PER_RULE} per rule and one finding that
 * says how many more, while the counts and the verdict stay those of every finding.
 */
class ListedFindingsTest {
  private static final String WHEEL = "/dist/t.whl";

  @TempDir Path temp;

  private static List<Finding> floorProblems(int count) {
    List<Finding> found = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      found.add(new Finding("SYMBOL-FLOOR", Severity.ERROR, "/floors/many/lib" + i + ".so.1",
          "a library that cannot be read", "a readable ELF shared library", "give the library as installed"));
    }
    return found;
  }

  private static GateReport judge(List<Finding> found, List<Suppression> suppressions) {
    return Gate.judge(ReportKind.VERIFY, CheckCatalogue.CHECKS, found, "wheel_lib " + WHEEL,
        GatePolicy.of(CheckCatalogue.CHECKS, Severity.ERROR, Map.of(), suppressions));
  }

  @Test
  void aRuleOfAHundredFiftyThousandFindingsListsAHundredThenOneThatCountsTheRest() throws Exception {
    List<Finding> found = floorProblems(150_001);
    found.add(new Finding("BAKED-BUILD-PATHS", Severity.WARNING, WHEEL + "!config.h", "a path", "none", "unset it"));
    GateReport report = judge(found, List.of());

    List<Finding> floor = report.findings().stream().filter(f -> f.checkId().equals("SYMBOL-FLOOR")).toList();
    assertEquals(Gate.MAX_LISTED_PER_RULE + 1, floor.size());
    assertEquals(found.subList(0, Gate.MAX_LISTED_PER_RULE), floor.subList(0, Gate.MAX_LISTED_PER_RULE));
    Finding more = floor.get(Gate.MAX_LISTED_PER_RULE);
    assertEquals(Severity.ERROR, more.severity());
    assertEquals("/floors/many", more.file(), "the folder every unlisted finding lies in");
    assertTrue(more.found().startsWith("149,901 more SYMBOL-FLOOR findings, not listed (149,901 of them errors)"),
        more.found());
    assertEquals("BAKED-BUILD-PATHS", report.findings().get(report.findings().size() - 1).checkId(),
        "the other rule's finding is listed after the capped rule's");

    assertEquals(150_001, report.count(Severity.ERROR));
    assertEquals(1, report.count(Severity.WARNING));
    assertFalse(report.passed());
    assertTrue(report.summary().startsWith("FAILED: 150001 errors, 1 warning, 0 suppressed"), report.summary());

    ReportWriter writer = new ReportWriter(report.withDetails(new VerifyDetails(List.of(), null)), temp);
    assertEquals(Gate.MAX_LISTED_PER_RULE + 3, writer.table().size(), "heading, 101 rows, the warning");
    String json = writer.json();
    ReportSchemas.assertValid(ReportKind.VERIFY, json);
    assertEquals(Map.of("error", 150_001L, "warning", 1L, "info", 0L, "suppressed", 0L),
        ((Map<?, ?>) Json.parse(json)).get("counts"));
    for (String form : List.of(json, writer.junit(), writer.sarif())) {
      assertTrue(form.length() < 200_000, form.length() + " characters");
    }
    assertEquals(Gate.MAX_LISTED_PER_RULE + 2, writer.workflowCommands().size());
  }

  @Test
  void unlistedWarningsKeepAPassingVerdictAndSuppressedFindingsAreListedAsSparingly() {
    List<Finding> found = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      found.add(new Finding("BAKED-BUILD-PATHS", Severity.WARNING, WHEEL + "!include/h" + i + ".h", "a path", "none",
          "unset it"));
    }
    found.addAll(floorProblems(300));
    GateReport report = judge(found, List.of(Suppression.parse("SYMBOL-FLOOR: the floors are being replaced")));

    assertTrue(report.passed(), report.summary());
    Finding more = report.findings().get(report.findings().size() - 1);
    assertEquals(Severity.WARNING, more.severity(), "the rest of a rule's warnings stand as one warning");
    assertEquals(WHEEL + "!include", more.file());
    assertEquals(500, report.count(Severity.WARNING));
    assertEquals(300, report.totals().suppressed());
    assertEquals(Gate.MAX_LISTED_PER_RULE + 1, report.suppressed().size());
    assertTrue(report.suppressed().get(Gate.MAX_LISTED_PER_RULE).finding().found().startsWith("200 more"));
    assertTrue(report.summary().contains("500 warnings, 300 suppressed"), report.summary());
  }

  @Test
  void findingsOfOnePlaceShareItAndOthersShareTheirFolder() {
    Finding a = new Finding("WHEEL-PATHS", Severity.ERROR, "/w/x.whl!a/b/c.h", "x", "y", "z");
    Finding b = new Finding("WHEEL-PATHS", Severity.ERROR, "/w/x.whl!a/bc/d.h", "x", "y", "z");
    Finding c = new Finding("WHEEL-PATHS", Severity.ERROR, "/w/x.whl!z.h", "x", "y", "z");
    assertEquals("/w/x.whl!a", ListedFindings.sharedPlace(List.of(a, b)));
    assertEquals("/w/x.whl", ListedFindings.sharedPlace(List.of(a, b, c)));
    assertEquals(a.file(), ListedFindings.sharedPlace(List.of(a, a)));
    assertEquals("relative", ListedFindings.sharedPlace(List.of(a.inFile("relative"), b.inFile("other"))));
  }
}
