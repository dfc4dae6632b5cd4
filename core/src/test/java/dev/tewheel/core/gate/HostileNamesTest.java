package dev.tewheel.core.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.json.Json;
import dev.tewheel.json.Printable;
import dev.tewheel.standins.GitHubRunner;
import dev.tewheel.standins.HostileText;
import java.io.ByteArrayInputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Every report form held to properties over the generated hostile strings ({@link HostileText}), each one a file
 * name, a finding's words, a suppression's reason and the subject's name: the console is one line per logical line
 * with no raw control, format, separator, surrogate or noncharacter code point, and nothing GitHub's runner reads as a
 * command; each workflow command parses, by the runner's rules, as exactly that one command with the console's text;
 * the JUnit XML parses with the JDK's parser; SARIF and report.json parse and give back the exact strings.
 */
@Timeout(300)
class HostileNamesTest {
  private static final Path PROJECT = Path.of("/work/project");
  private static final int BATCH = 250;

  private static final List<Batch> BATCHES = batches();

  /** One report per batch of hostile strings: findings on {@code <project>/wheel_lib/<s>}, one suppressed per batch. */
  private static List<Batch> batches() {
    List<String> hostile = HostileText.strings();
    List<Batch> batches = new ArrayList<>();
    for (int from = 0; from < hostile.size(); from += BATCH) {
      List<String> names = hostile.subList(from, Math.min(hostile.size(), from + BATCH));
      List<Finding> findings = new ArrayList<>();
      for (int i = 0; i < names.size(); i++) {
        String s = names.get(i);
        Finding f = new Finding("WHEEL-PATHS", Severity.values()[i % 3], PROJECT + "/wheel_lib/" + s, "a " + s,
            "no " + s, "rename " + s);
        findings.add(i % 2 == 0 ? f : f.atLine(i));
      }
      Finding accepted = new Finding("WHEEL-ZIP", Severity.ERROR, PROJECT + "/wheel_lib/" + names.get(0), "x", "y",
          "z");
      String subject = String.join("", names.subList(0, Math.min(8, names.size())));
      GateReport report = new GateReport(ReportKind.VERIFY, subject, subject, Severity.WARNING,
          CheckCatalogue.all(), findings, List.of(new GateReport.SuppressedFinding(accepted, "because " + names.get(0))),
          List.of(new Suppression("WHEEL-PATHS", "stale/" + names.get(0), "stale " + names.get(names.size() - 1))),
          ReportDetails.NONE, Map.of());
      batches.add(new Batch(names, report, new ReportWriter(report, PROJECT)));
    }
    return batches;
  }

  private record Batch(List<String> names, GateReport report, ReportWriter writer) {}

  @Test
  void everyConsoleLineIsOneLineWithNoDangerousCodePointAndNoRunnerCommand() {
    for (Batch batch : BATCHES) {
      List<String> lines = new ArrayList<>();
      batch.writer().table().forEach(l -> lines.add(l.text()));
      assertEquals(1 + batch.names().size() + 1, lines.size(), "header, a row per finding, the suppressed one");
      lines.add(batch.writer().summary());
      lines.addAll(batch.writer().warnings());
      for (String line : lines) {
        assertClean(line);
        assertEquals(List.of(), GitHubRunner.commands(line), line);
        assertEquals(List.of(), GitHubRunner.commands("[INFO] " + line), line);
      }
    }
  }

  @Test
  void everyWorkflowCommandParsesAsExactlyItsOneCommand() {
    for (Batch batch : BATCHES) {
      for (Finding f : batch.report().findings()) {
        String line = batch.writer().workflowCommand(f);
        assertClean(line);
        List<GitHubRunner.Command> commands = GitHubRunner.commands(line);
        assertEquals(1, commands.size(), line);
        GitHubRunner.Command command = commands.get(0);
        assertFalse(command.legacy(), line);
        assertEquals(SarifReport.level(f.severity()).replace("note", "notice"), command.name(), line);
        Map<String, String> expected = new HashMap<>();
        expected.put("file", Printable.text(f.file().substring(PROJECT.toString().length() + 1)));
        if (f.line() != null) {
          expected.put("line", f.line().toString());
        }
        expected.put("title", f.checkId());
        assertEquals(expected, command.properties(), line);
        assertEquals(Printable.text(f.checkId() + ": " + f.text()), command.data(), line);
      }
    }
  }

  @Test
  void theJunitXmlIsWellFormedXmlWhateverANameHolds() throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    for (Batch batch : BATCHES) {
      String xml = batch.writer().junit();
      Document doc;
      try {
        doc = factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
      } catch (Exception e) {
        throw new AssertionError("not well-formed XML for names " + batch.names().stream().map(HostileNamesTest::ascii)
            .toList() + ": " + e.getMessage(), e);
      }
      NodeList cases = doc.getElementsByTagName("testcase");
      Set<String> names = new TreeSet<>();
      for (int i = 0; i < cases.getLength(); i++) {
        Element testcase = (Element) cases.item(i);
        if (testcase.getAttribute("classname").equals("WHEEL-PATHS")) {
          names.add(testcase.getAttribute("name"));
        }
        assertClean(testcase.getAttribute("name"));
        NodeList children = testcase.getElementsByTagName("*");
        for (int j = 0; j < children.getLength(); j++) {
          Element child = (Element) children.item(j);
          assertClean(child.getTextContent());
          assertClean(child.getAttribute("message"));
        }
      }
      Set<String> expected = new TreeSet<>();
      batch.report().findings().forEach(f -> expected.add(Printable.text(f.location())));
      assertEquals(expected, names, "each finding a testcase named by its place, as the console shows it");
      assertEquals(batch.report().kind().goal(), doc.getDocumentElement().getAttribute("name"));
    }
  }

  @Test
  void sarifAndReportJsonParseAndGiveBackTheExactStrings() {
    for (Batch batch : BATCHES) {
      Map<?, ?> run = (Map<?, ?>) ((List<?>) ((Map<?, ?>) Json.parse(batch.writer().sarif())).get("runs")).get(0);
      List<?> results = (List<?>) run.get("results");
      List<Finding> findings = batch.report().findings();
      for (int i = 0; i < findings.size(); i++) {
        Finding f = findings.get(i);
        Map<?, ?> result = (Map<?, ?>) results.get(i);
        assertEquals(f.message(), ((Map<?, ?>) result.get("message")).get("text"));
        Map<?, ?> artifact = (Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) ((List<?>) result.get("locations")).get(0))
            .get("physicalLocation")).get("artifactLocation");
        assertEquals("PROJECTROOT", artifact.get("uriBaseId"), f.file());
        String uri = (String) artifact.get("uri");
        assertTrue(uri.matches("[A-Za-z0-9._~/%-]*"), uri);
        String name = f.file().substring(PROJECT.toString().length() + 1);
        if (StandardCharsets.UTF_8.newEncoder().canEncode(name)) {
          assertEquals(name, URLDecoder.decode(uri.replace("+", "%2B"), StandardCharsets.UTF_8));
        }
      }
      Map<?, ?> suppressed = (Map<?, ?>) results.get(findings.size());
      assertEquals("because " + batch.names().get(0),
          ((Map<?, ?>) ((List<?>) suppressed.get("suppressions")).get(0)).get("justification"));

      Map<?, ?> json = (Map<?, ?>) Json.parse(batch.writer().json());
      List<?> jsonFindings = (List<?>) json.get("findings");
      for (int i = 0; i < findings.size(); i++) {
        Map<?, ?> finding = (Map<?, ?>) jsonFindings.get(i);
        assertEquals(findings.get(i).file(), finding.get("file"));
        assertEquals(findings.get(i).found(), finding.get("found"));
      }
    }
  }

  /** No raw dangerous code point and no line break of any kind: the text is one line as every reader sees it. */
  private static void assertClean(String text) {
    text.codePoints().filter(HostileText::dangerous).findFirst()
        .ifPresent(c -> fail(String.format("U+%04X raw in %s", c, ascii(text))));
    assertTrue(GitHubRunner.lines(text).size() <= 1, text);
  }

  private static String ascii(String s) {
    StringBuilder out = new StringBuilder();
    s.chars().forEach(c -> out.append(c >= 0x20 && c < 0x7f ? String.valueOf((char) c)
        : String.format("<%04X>", c)));
    return out.toString();
  }
}
