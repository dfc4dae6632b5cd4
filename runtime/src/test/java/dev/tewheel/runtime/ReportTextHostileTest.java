package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tewheel.runtime.report.Availability;
import dev.tewheel.runtime.report.Dependency;
import dev.tewheel.runtime.report.EnvironmentSetting;
import dev.tewheel.runtime.report.JitPreflight;
import dev.tewheel.runtime.report.LoadPrediction;
import dev.tewheel.runtime.report.NativeLibrary;
import dev.tewheel.runtime.report.NativeWorld;
import dev.tewheel.runtime.report.NcclEpCandidate;
import dev.tewheel.runtime.report.NcclStatus;
import dev.tewheel.runtime.report.NcclVersion;
import dev.tewheel.runtime.report.Provenance;
import dev.tewheel.runtime.report.Report;
import dev.tewheel.runtime.report.SearchStep;
import dev.tewheel.json.Json;
import dev.tewheel.standins.GitHubRunner;
import dev.tewheel.standins.HostileText;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * te-runtime's text reports held to properties over the generated hostile strings ({@link HostileText}), each one
 * in every text of the report at once (paths, DT_NEEDED names, SONAMEs, reasons, environment values, details): the
 * report has exactly the lines it has for a plain name, none with a raw control, format, separator, surrogate or
 * noncharacter code point, none a command for GitHub's runner, and one {@code Available:} line, the real one. The
 * JSON form gives back the exact strings.
 */
@Timeout(300)
class ReportTextHostileTest {
  private static final String PLAIN = "libplain.so.1";

  @Test
  void everyTextReportKeepsItsLinesWhateverItsNamesHold() {
    int available = lines(Report.text(availability(PLAIN))).size();
    int world = lines(Report.text(world(PLAIN))).size();
    int jit = lines(Report.text(jit(PLAIN))).size();
    for (String s : HostileText.strings()) {
      String availabilityText = Report.text(availability(s));
      check(s, availabilityText, available);
      List<String> verdicts = lines(availabilityText).stream().filter(l -> l.startsWith("Available:")).toList();
      assertEquals(List.of("Available: no, " + dev.tewheel.json.Printable.text("refused " + s)), verdicts, ascii(s));
      check(s, Report.text(world(s)), world);
      check(s, Report.text(jit(s)), jit);
    }
  }

  @Test
  void theJsonReportGivesBackTheExactStrings() {
    for (String s : HostileText.strings()) {
      Map<?, ?> json = (Map<?, ?>) Json.parse(Report.json(availability(s)));
      assertEquals("refused " + s, json.get("reason"), ascii(s));
      assertEquals(s, ((Map<?, ?>) ((List<?>) json.get("dependencies")).get(0)).get("name"), ascii(s));
    }
  }

  private static void check(String s, String text, int expectedLines) {
    List<String> lines = lines(text);
    assertEquals(expectedLines, lines.size(), () -> ascii(s) + " made:\n" + text);
    for (String line : lines) {
      line.codePoints().filter(HostileText::dangerous).findFirst()
          .ifPresent(c -> fail(String.format("U+%04X raw in %s (from %s)", c, ascii(line), ascii(s))));
    }
    assertEquals(List.of(), GitHubRunner.commands(text), () -> ascii(s) + " made:\n" + text);
  }

  /** The lines as a terminal shows them: broken at every line terminator Unicode knows. */
  private static List<String> lines(String text) {
    assertEquals('\n', text.charAt(text.length() - 1));
    return List.of(text.substring(0, text.length() - 1).split("\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]", -1));
  }

  /** {@code /x/<s>}, or {@code /x/unpathable} for a string no path can hold (NUL, a lone surrogate). */
  private static Path path(String s) {
    try {
      return Path.of("/x/" + s);
    } catch (InvalidPathException e) {
      return Path.of("/x/unpathable");
    }
  }

  private static Availability availability(String s) {
    Path p = path(s);
    SearchStep step = new SearchStep("environment NCCL_EP_HOME", s, SearchStep.Outcome.REFUSED, "refused " + s);
    NcclEpCandidate candidate = new NcclEpCandidate(p, true, "SONAME " + s, Optional.of(s),
        Optional.of(NcclVersion.parse("0.1.0")));
    Dependency needed = new Dependency(s, s, Optional.of(p), Dependency.FoundBy.RUNPATH, s, List.of(s, s));
    Dependency missing = new Dependency(s, s, Optional.empty(), Dependency.FoundBy.NOT_FOUND, "", List.of());
    NcclStatus nccl = new NcclStatus(Optional.of(p), NcclStatus.Source.CONFIGURED,
        Optional.of(NcclVersion.parse("2.30.4")), NcclVersion.parse("2.30.4"), false, "NCCL " + s);
    return new Availability(false, "refused " + s, List.of(step, step), Optional.of(p), 0,
        new Provenance(Provenance.Origin.SYSTEM_PROPERTY, "property " + s), List.of(candidate, candidate),
        Optional.of(candidate), Optional.of(p), List.of(needed, missing), nccl);
  }

  private static NativeWorld world(String s) {
    Path p = path(s);
    NativeLibrary library = new NativeLibrary(s, Optional.of(p), List.of(p, p), Optional.of(s), Optional.of(s),
        s, NativeLibrary.FoundBy.SYSTEM, s, List.of(p), Optional.of(s));
    LoadPrediction te = new LoadPrediction(s, p, true, List.of(s), List.of(s), List.of(s), "detail " + s);
    return new NativeWorld(List.of(library, library), Optional.of(p), s, false, Optional.of(12), s,
        List.of(s, s), List.of(s), Optional.of(te));
  }

  private static JitPreflight jit(String s) {
    Path p = path(s);
    return new JitPreflight(Optional.of(p), s, Optional.of(s), Optional.of(p), s, Optional.of(p), s,
        Optional.of(NcclVersion.parse("2.30.4")), Optional.of(NcclVersion.parse("2.30.4")), Optional.of(p), s, true,
        p, s, List.of(s, s), List.of(new EnvironmentSetting(s, s, true, s)), List.of(s), "verdict " + s);
  }

  private static String ascii(String s) {
    StringBuilder out = new StringBuilder();
    s.chars().forEach(c -> out.append(c >= 0x20 && c < 0x7f ? String.valueOf((char) c)
        : String.format("<%04X>", c)));
    return out.toString();
  }
}
