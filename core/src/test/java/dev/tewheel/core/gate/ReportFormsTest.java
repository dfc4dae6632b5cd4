package dev.tewheel.core.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.verify.Verifier;
import dev.tewheel.core.verify.VerifyRequest;
import dev.tewheel.json.Json;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every form of one real verify report (the stand-ins' wheel_lib: config.h names the build machine's folders on
 * lines 2, 3 and 4; line 2 suppressed), with the temporary folder as the project's: SARIF field by field, the JUnit XML's names and times, report.json against
 * its schema, and the GitHub Actions commands.
 */
@Timeout(120)
class ReportFormsTest {
  @TempDir Path temp;
  private Path reports;
  private GateReport report;

  @BeforeEach
  void verify() throws Exception {
    Path wheelLib = temp.resolve("wheel_lib");
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(),
        wheelLib));
    reports = temp.resolve("reports");
    report = new Verifier().verify(VerifyRequest.folder(wheelLib).withPlatformTag("manylinux_2_34_x86_64")
        .withFailOn(Severity.WARNING).withReportDirectory(reports).withProjectBase(temp)
        .withSuppressions(List.of(Suppression.parse("BAKED-BUILD-PATHS@config.h:2: te-runtime sets NCCL_EP_HOME"))));
    assertEquals(2, report.findings().stream().filter(f -> f.checkId().equals("BAKED-BUILD-PATHS")).count());
  }

  @Test
  void sarifListsEveryRuleAndLocatesEveryResult() throws Exception {
    Map<?, ?> sarif = (Map<?, ?>) Json.parse(Files.readString(reports.resolve("verify.sarif")));
    assertEquals("2.1.0", sarif.get("version"));
    assertTrue(((String) sarif.get("$schema")).endsWith("sarif-schema-2.1.0.json"), sarif.get("$schema").toString());
    List<?> runs = (List<?>) sarif.get("runs");
    assertEquals(1, runs.size());
    Map<?, ?> run = (Map<?, ?>) runs.get(0);
    assertEquals(Map.of("PROJECTROOT", Map.of("uri", "file://" + temp.toAbsolutePath().normalize() + "/")),
        run.get("originalUriBaseIds"));
    Map<?, ?> driver = (Map<?, ?>) ((Map<?, ?>) run.get("tool")).get("driver");
    assertEquals("te-wheel", driver.get("name"));
    List<?> rules = (List<?>) driver.get("rules");
    assertEquals(CheckCatalogue.all().size(), rules.size());
    for (int i = 0; i < rules.size(); i++) {
      Map<?, ?> rule = (Map<?, ?>) rules.get(i);
      Rule check = CheckCatalogue.all().get(i);
      assertEquals(check.id(), rule.get("id"));
      assertEquals(check.title(), ((Map<?, ?>) rule.get("shortDescription")).get("text"));
      assertEquals(SarifReport.level(check.defaultSeverity()),
          ((Map<?, ?>) rule.get("defaultConfiguration")).get("level"));
      String help = (String) ((Map<?, ?>) rule.get("help")).get("text");
      assertFalse(help.isBlank() || help.equals(check.title()), check.id() + " has no help from docs/checks.md");
    }
    Map<?, ?> bindNow = (Map<?, ?>) rules.stream().filter(r -> ((Map<?, ?>) r).get("id").equals("TE-BIND-NOW"))
        .findFirst().orElseThrow();
    assertTrue(((Map<?, ?>) bindNow.get("help")).get("text").toString().startsWith("Why:"), bindNow.toString());

    List<?> results = (List<?>) run.get("results");
    assertEquals(report.findings().size() + report.suppressed().size(), results.size());
    for (int i = 0; i < report.findings().size(); i++) {
      Finding f = report.findings().get(i);
      Map<?, ?> result = (Map<?, ?>) results.get(i);
      assertEquals(f.checkId(), result.get("ruleId"));
      assertEquals(CheckCatalogue.all().indexOf(CheckCatalogue.check(f.checkId())),
          ((Long) result.get("ruleIndex")).intValue());
      assertEquals(SarifReport.level(f.severity()), result.get("level"));
      assertEquals(f.message(), ((Map<?, ?>) result.get("message")).get("text"));
      Map<?, ?> physical = (Map<?, ?>) ((Map<?, ?>) ((List<?>) result.get("locations")).get(0))
          .get("physicalLocation");
      assertEquals(Map.of("uri", temp.toAbsolutePath().normalize().relativize(Path.of(f.file())).toString(),
          "uriBaseId", "PROJECTROOT"), physical.get("artifactLocation"), "below the project: relative to PROJECTROOT");
      Map<?, ?> region = (Map<?, ?>) physical.get("region");
      if (f.line() == null) {
        assertNull(region, result.toString());
      } else {
        assertEquals((long) f.line(), region.get("startLine"));
      }
      assertNull(result.get("suppressions"));
    }
    Map<?, ?> accepted = (Map<?, ?>) results.get(report.findings().size());
    assertEquals("BAKED-BUILD-PATHS", accepted.get("ruleId"));
    assertEquals(2L, ((Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) ((List<?>) accepted.get("locations")).get(0))
        .get("physicalLocation")).get("region")).get("startLine"));
    assertEquals(List.of(Map.of("kind", "external", "justification", "te-runtime sets NCCL_EP_HOME")),
        accepted.get("suppressions"));
  }

  @Test
  void aPathIsAUriWithItsBytesEscapedAndAFindingInsideAWheelPointsAtTheWheel() {
    assertEquals("dist/a%20b%25c%C3%A9.whl", SarifReport.uri("dist/a b%cé.whl"));
    assertEquals("file:///tmp/x/lib.so", SarifReport.uri("/tmp/x/lib.so"));
    Finding inWheel = new Finding("WHEEL-PATHS", Severity.ERROR, temp.resolve("dist/t.whl!a/b").toString(), "x", "y",
        "z");
    GateReport one = new GateReport(ReportKind.VERIFY, "t.whl", "-", Severity.ERROR, CheckCatalogue.all(),
        List.of(inWheel), List.of(), List.of(), ReportDetails.NONE, Map.of());
    String sarif = new ReportWriter(one, temp).sarif();
    assertTrue(sarif.contains("\"uri\": \"dist/t.whl\""), sarif);
  }

  @Test
  void aFileOutsideTheProjectIsAnAbsoluteUriWithoutABase() throws Exception {
    Path project = temp.resolve("project");
    Finding outside = new Finding("WHEEL-PATHS", Severity.ERROR, temp.resolve("elsewhere/lib a.so").toString(), "x",
        "y", "z");
    Finding inside = new Finding("WHEEL-PATHS", Severity.ERROR, project.resolve("dist/t.whl").toString(), "x", "y",
        "z");
    GateReport two = new GateReport(ReportKind.VERIFY, "t.whl", "-", Severity.ERROR, CheckCatalogue.all(),
        List.of(outside, inside), List.of(), List.of(), ReportDetails.NONE, Map.of());
    Map<?, ?> run = (Map<?, ?>) ((List<?>) ((Map<?, ?>) Json.parse(new ReportWriter(two, project).sarif()))
        .get("runs")).get(0);
    assertEquals(Map.of("PROJECTROOT", Map.of("uri", "file://" + project.toAbsolutePath().normalize() + "/")),
        run.get("originalUriBaseIds"));
    List<?> results = (List<?>) run.get("results");
    assertEquals(Map.of("uri", "file://" + temp.toAbsolutePath().normalize() + "/elsewhere/lib%20a.so"),
        artifact(results.get(0)));
    assertEquals(Map.of("uri", "dist/t.whl", "uriBaseId", "PROJECTROOT"), artifact(results.get(1)));

    // Without a project folder (core called directly): no base, every file absolute.
    Map<?, ?> bare = (Map<?, ?>) ((List<?>) ((Map<?, ?>) Json.parse(new ReportWriter(two).sarif())).get("runs"))
        .get(0);
    assertNull(bare.get("originalUriBaseIds"));
    assertEquals(Map.of("uri", "file://" + project.toAbsolutePath().normalize() + "/dist/t.whl"),
        artifact(((List<?>) bare.get("results")).get(1)));
  }

  @Test
  void aFileReachedThroughDotDotIsJudgedInsideOrOutsideTheProjectAfterItsSegmentsAreResolved() throws Exception {
    Path project = temp.resolve("project");
    Finding escapes = new Finding("WHEEL-PATHS", Severity.ERROR, project + "/../lib/x.so", "x", "y", "z");
    Finding comesBack = new Finding("WHEEL-PATHS", Severity.ERROR, project + "/./target/../dist/t.whl!a/../b", "x",
        "y", "z");
    Finding deeper = new Finding("WHEEL-PATHS", Severity.ERROR, project + "/target/../../project/dist/u.whl", "x", "y",
        "z");
    GateReport three = new GateReport(ReportKind.VERIFY, "t.whl", "-", Severity.ERROR, CheckCatalogue.all(),
        List.of(escapes, comesBack, deeper), List.of(), List.of(), ReportDetails.NONE, Map.of());
    ReportWriter writer = new ReportWriter(three, project);
    List<?> results = (List<?>) ((Map<?, ?>) ((List<?>) ((Map<?, ?>) Json.parse(writer.sarif())).get("runs")).get(0))
        .get("results");
    assertEquals(Map.of("uri", "file://" + temp.toAbsolutePath().normalize() + "/lib/x.so"), artifact(results.get(0)),
        "outside the project: an absolute URI, never ../lib/x.so against PROJECTROOT");
    assertEquals(Map.of("uri", "dist/t.whl", "uriBaseId", "PROJECTROOT"), artifact(results.get(1)));
    assertEquals(Map.of("uri", "dist/u.whl", "uriBaseId", "PROJECTROOT"), artifact(results.get(2)));
    // The console and the annotations name the same places; a wheel's entry is named as the archive spells it.
    assertEquals(temp.toAbsolutePath().normalize() + "/lib/x.so", writer.location(escapes));
    assertEquals("dist/t.whl!a/../b", writer.location(comesBack));
    assertTrue(writer.workflowCommand(escapes).startsWith("::error file=" + temp.toAbsolutePath().normalize()
        .toString().replace(":", "%3A") + "/lib/x.so,"), writer.workflowCommand(escapes));
  }

  private static Object artifact(Object result) {
    return ((Map<?, ?>) ((Map<?, ?>) ((List<?>) ((Map<?, ?>) result).get("locations")).get(0))
        .get("physicalLocation")).get("artifactLocation");
  }

  @Test
  void junitNamesAreUniqueAndEveryTestcaseHasATime() throws Exception {
    String junit = Files.readString(reports.resolve(ReportKind.VERIFY.junitFileName()));
    assertTrue(Pattern.compile("<testsuite name=\"te:verify-wheel-lib\" tests=\"\\d+\" failures=\"2\" errors=\"0\""
        + " skipped=\"1\" time=\"\\d+\\.\\d{3}\">").matcher(junit).find(), junit);
    Matcher testcase = Pattern.compile("<testcase classname=\"([^\"]+)\" name=\"([^\"]+)\" time=\"\\d+\\.\\d{3}\"")
        .matcher(junit);
    Set<String> names = new HashSet<>();
    int cases = 0;
    while (testcase.find()) {
      cases++;
      assertTrue(names.add(testcase.group(1) + " " + testcase.group(2)), "twice: " + testcase.group());
    }
    assertEquals(cases, junit.split("<testcase ", -1).length - 1, "every testcase has a time");
    assertTrue(names.stream().anyMatch(n -> n.startsWith("BAKED-BUILD-PATHS ") && n.endsWith("config.h:3")), names
        .toString());
  }

  @Test
  void jsonHasTheLineApartFromTheFileAndFitsItsSchema() throws Exception {
    ReportSchemas.assertValid(ReportKind.VERIFY, reports);
    Map<?, ?> json = (Map<?, ?>) Json.parse(Files.readString(reports.resolve("report.json")));
    Map<?, ?> baked = (Map<?, ?>) ((List<?>) json.get("findings")).stream()
        .filter(f -> ((Map<?, ?>) f).get("id").equals("BAKED-BUILD-PATHS")).findFirst().orElseThrow();
    assertTrue(((String) baked.get("file")).endsWith("/config.h"), baked.toString());
    assertEquals(3L, baked.get("line"));
    // The schema is strict: a line in the file, or a line as text, is refused.
    String text = new ReportWriter(report).json();
    assertFalse(ReportSchemas.violations(ReportKind.VERIFY, text.replace("\"line\": 3,", "\"line\": \"3\",")).isEmpty());
    assertFalse(ReportSchemas.violations(ReportKind.VERIFY, text.replace("\"schema\": \"te-wheel-verify-report/1\"",
        "\"schema\": \"te-wheel-diff-report/1\"")).isEmpty());
  }

  @Test
  void workflowCommandsAreOnePerFindingEscapedAsTheRunnerRequires() {
    List<String> commands = new ReportWriter(report, temp).workflowCommands();
    assertEquals(report.findings().size(), commands.size());
    String baked = commands.stream().filter(c -> c.contains("title=BAKED-BUILD-PATHS")).findFirst().orElseThrow();
    assertTrue(baked.startsWith("::warning file=wheel_lib/nccl_ep/include/nccl_ep/config.h,line=3,"
        + "title=BAKED-BUILD-PATHS::BAKED-BUILD-PATHS: found the build machine's path"), baked);
    Finding hostile = new Finding("WHEEL-PATHS", Severity.ERROR, "a,b:c%d\ne.so", "50% of it\r\nand\u001b[2K", "x",
        "y");
    GateReport one = new GateReport(ReportKind.VERIFY, "t", "-", Severity.ERROR, CheckCatalogue.all(),
        List.of(hostile, hostile.withSeverity(Severity.INFO)), List.of(), List.of(), ReportDetails.NONE,
        Map.of());
    // The one rule first (the annotation shows what the console shows), then the runner's % escapes.
    assertEquals(List.of("::error file=a%2Cb%3Ac%25d\\ne.so,title=WHEEL-PATHS::WHEEL-PATHS: found 50%25 of it\\r"
        + "\\nand\\u001b[2K; expected x. Fix: y", "::notice file=a%2Cb%3Ac%25d\\ne.so,title=WHEEL-PATHS::WHEEL-PATHS:"
        + " found 50%25 of it\\r\\nand\\u001b[2K; expected x. Fix: y"), new ReportWriter(one).workflowCommands());
  }

  @Test
  void theConsoleTableLogsEachFindingAtItsLevelAndNeverCutsAPath() {
    List<LogLine> table = new ReportWriter(report, temp).table();
    for (Finding f : report.findings()) {
      LogLine line = table.stream().filter(l -> l.finding() == f).findFirst().orElseThrow();
      assertEquals(f.severity(), line.level());
    }
    String longPath = "/" + "x".repeat(120) + "/libtransformer_engine.so";
    Finding deep = new Finding("TE-BIND-NOW", Severity.ERROR, longPath, "lazy", "now", "link with -z now");
    GateReport one = new GateReport(ReportKind.VERIFY, "t", "-", Severity.ERROR, CheckCatalogue.all(),
        List.of(deep), List.of(), List.of(), ReportDetails.NONE, Map.of());
    assertTrue(new ReportWriter(one).table().get(1).text().contains(longPath));
  }
}
