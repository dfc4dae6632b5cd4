package dev.tewheel.core.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.assemble.AssembleException;
import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.AssembleResult;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.json.Json;
import dev.tewheel.standins.StandIns;
import dev.tewheel.standins.StandIns.Defect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Assemble's report files, written from its one gate report as verify's are: report.json against the shipped
 * assemble schema, the JUnit suite, SARIF field by field, for a run that passes with warnings and one whose errors
 * stop it before anything is written (its reports are written all the same). The stand-ins' folder is the project's,
 * so the findings' files are relative SARIF locations.
 */
@Timeout(120)
class AssembleReportsTest {
  @TempDir Path temp;

  @Test
  void aPassingRunWritesEveryReportFormOfItsVerdict() throws Exception {
    Path reports = temp.resolve("reports");
    AssembleResult result = new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(),
        StandIns.ncclEpHome(), temp.resolve("wheel_lib")).withReports(reports, StandIns.root()));
    GateReport report = result.verdict();
    assertEquals(ReportKind.ASSEMBLE, report.kind());
    assertTrue(report.passed());
    assertFalse(report.findings().isEmpty(), "the stand-ins' config.h names the build machine's folders");

    String json = Files.readString(reports.resolve("report.json"));
    ReportSchemas.assertValid(ReportKind.ASSEMBLE, json);
    Map<?, ?> root = (Map<?, ?>) Json.parse(json);
    assertEquals("te-wheel-assemble-report/1", root.get("schema"));
    assertEquals(true, root.get("passed"));
    assertEquals("-", root.get("platformTag"));
    assertEquals(report.findings().size(), ((List<?>) root.get("findings")).size());
    // A verify report is not an assemble one: the schemas tell the kinds apart.
    assertFalse(ReportSchemas.violations(ReportKind.ASSEMBLE, json.replace("te-wheel-assemble-report/1",
        "te-wheel-verify-report/1")).isEmpty());

    String junit = Files.readString(reports.resolve("TEST-te-assemble-wheel-lib.xml"));
    int cases = junit.split("<testcase ", -1).length - 1; // a check per case, or a case per finding of a check
    assertTrue(junit.startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"te:assemble-wheel-lib\""
        + " tests=\"" + cases + "\""), junit);
    for (Finding f : report.findings()) {
      assertTrue(junit.contains("<testcase classname=\"" + f.checkId() + "\""), f.checkId() + " has no test case");
    }

    assertSarif(reports.resolve("assemble.sarif"), report);
  }

  @Test
  void aStoppedRunWritesItsReportsAndNothingElse() throws Exception {
    Path reports = temp.resolve("reports");
    Path out = temp.resolve("wheel_lib");
    AssembleException e = assertThrows(AssembleException.class, () -> new Assembler(line -> {}).assemble(
        AssembleRequest.of(StandIns.defect(Defect.TE_LAZY_BINDING), StandIns.ncclEpHome(), out)
            .withReports(reports, StandIns.root())));
    assertFalse(Files.exists(out), "a stopped run wrote " + out);
    GateReport report = e.verdict().orElseThrow();
    assertFalse(report.passed());

    String json = Files.readString(reports.resolve("report.json"));
    ReportSchemas.assertValid(ReportKind.ASSEMBLE, json);
    Map<?, ?> root = (Map<?, ?>) Json.parse(json);
    assertEquals(false, root.get("passed"));
    Map<?, ?> first = (Map<?, ?>) ((List<?>) root.get("findings")).get(0);
    assertEquals("TE-BIND-NOW", first.get("id"));
    assertEquals("error", first.get("severity"));
    assertEquals(StandIns.defect(Defect.TE_LAZY_BINDING).toString(), first.get("file"));
    assertNull(first.get("line"));
    assertEquals(1L, ((Map<?, ?>) root.get("counts")).get("error"));

    assertSarif(reports.resolve("assemble.sarif"), report);
  }

  @Test
  void withoutAReportFolderNoFileIsWritten() throws Exception {
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(),
        temp.resolve("wheel_lib")));
    try (var files = Files.list(temp)) {
      assertEquals(List.of(temp.resolve("wheel_lib")), files.filter(p -> !p.getFileName().toString()
          .startsWith(".wheel_lib")).toList());
    }
  }

  /** The SARIF file of {@code report}: every catalogue rule, and each finding with level, message and location. */
  private static void assertSarif(Path file, GateReport report) throws Exception {
    Map<?, ?> sarif = (Map<?, ?>) Json.parse(Files.readString(file));
    assertEquals("2.1.0", sarif.get("version"));
    Map<?, ?> run = (Map<?, ?>) ((List<?>) sarif.get("runs")).get(0);
    assertEquals(Map.of("PROJECTROOT", Map.of("uri", "file://" + StandIns.root().toAbsolutePath().normalize() + "/")),
        run.get("originalUriBaseIds"));
    Map<?, ?> driver = (Map<?, ?>) ((Map<?, ?>) run.get("tool")).get("driver");
    List<?> rules = (List<?>) driver.get("rules");
    assertEquals(CheckCatalogue.all().stream().map(Rule::id).toList(),
        rules.stream().map(r -> ((Map<?, ?>) r).get("id")).toList());
    List<?> results = (List<?>) run.get("results");
    assertEquals(report.findings().size(), results.size());
    for (int i = 0; i < results.size(); i++) {
      Finding f = report.findings().get(i);
      Map<?, ?> result = (Map<?, ?>) results.get(i);
      assertEquals(f.checkId(), result.get("ruleId"));
      assertEquals(SarifReport.level(f.severity()), result.get("level"));
      assertEquals(f.message(), ((Map<?, ?>) result.get("message")).get("text"));
      Map<?, ?> physical = (Map<?, ?>) ((Map<?, ?>) ((List<?>) result.get("locations")).get(0))
          .get("physicalLocation");
      assertEquals(Map.of("uri", StandIns.root().toAbsolutePath().normalize().relativize(Path.of(f.file())).toString(),
          "uriBaseId", "PROJECTROOT"), physical.get("artifactLocation"));
      Map<?, ?> region = (Map<?, ?>) physical.get("region");
      if (f.line() == null) {
        assertNull(region, result.toString());
      } else {
        assertEquals((long) f.line(), region.get("startLine"));
      }
    }
  }
}
