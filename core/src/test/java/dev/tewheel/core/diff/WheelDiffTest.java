package dev.tewheel.core.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.ReportKind;
import dev.tewheel.core.gate.ReportSchemas;
import dev.tewheel.core.gate.ReportWriter;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.gate.Suppression;
import dev.tewheel.gatefixtures.GateFixtures;
import dev.tewheel.json.Json;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * te:diff-wheel's rules, each with a passing case (a release compared with itself) and a failing one (a change a
 * real release makes), and the v1/v2 pair of gate-fixtures.mk end to end.
 */
class WheelDiffTest {
  @TempDir Path temp;

  /** One change from the baseline to the current release, for each rule. */
  private static Map<String, Consumer<Path>> failingCases() {
    Map<String, Consumer<Path>> cases = new LinkedHashMap<>();
    cases.put("DIFF-INPUT", w -> linkOut(w.resolve("nccl_ep/include/nccl_ep.h"),
        StandIns.ncclEpHome().resolve("include/nccl_ep.h")));
    cases.put("DIFF-FILES", w -> write(w.resolve("nccl_ep/include/nccl_ep/extra.h"), "#pragma once\n"));
    cases.put("DIFF-READABLE", w -> write(w.resolve("libnccl_ep.so"), "#!/bin/sh\necho not a library\n"));
    cases.put("DIFF-SONAME", w -> copy(StandIns.defect(StandIns.Defect.NCCL_EP_MAJOR_1_HOME)
        .resolve("lib/libnccl_ep.so.1.0.0"), w.resolve("libnccl_ep.so")));
    cases.put("DIFF-NEEDED", w -> copy(StandIns.defect(StandIns.Defect.TE_NEEDS_CUDA), w.resolve("libtransformer_engine.so")));
    cases.put("DIFF-EXPORTS", w -> copy(StandIns.ncclLibDir().resolve("libnccl.so.2"), w.resolve("libnccl_ep.so")));
    cases.put("DIFF-GLIBC", w -> copy(GateFixtures.release(1), w.resolve("libtransformer_engine.so")));
    cases.put("DIFF-BIND-NOW", w -> copy(StandIns.defect(StandIns.Defect.TE_LAZY_BINDING), w.resolve("libtransformer_engine.so")));
    cases.put("DIFF-GPU-ARCHS", w -> { }); // baseline v1 vs current v2, below
    cases.put("DIFF-SIZE", w -> write(w.resolve("nccl_ep/include/nccl_ep/padding.h"), "x".repeat(200_000)));
    return cases;
  }

  @Test
  void everyRuleHasACaseAndIsDocumented() throws Exception {
    assertEquals(DiffRule.all().stream().map(DiffRule::id).collect(Collectors.toSet()), failingCases().keySet());
    String doc = Files.readString(Path.of("../docs/goals/diff-wheel.md"));
    for (DiffRule rule : DiffRule.all()) {
      assertTrue(doc.contains("| `" + rule.id() + "` |"), "docs/goals/diff-wheel.md has no row for " + rule.id());
    }
  }

  @TestFactory
  Stream<DynamicTest> eachRulePassesOnAnUnchangedReleaseAndFiresOnItsChange() {
    return failingCases().entrySet().stream().map(c -> DynamicTest.dynamicTest(c.getKey(), () -> {
      Path baseline = assembled(temp.resolve(c.getKey() + "/v1"));
      Path same = assembled(temp.resolve(c.getKey() + "/same"));
      if (c.getKey().equals("DIFF-GPU-ARCHS")) {
        copy(GateFixtures.release(1), baseline.resolve("libtransformer_engine.so"));
        copy(GateFixtures.release(1), same.resolve("libtransformer_engine.so"));
      }
      List<Finding> none = diff(baseline, same).findings().stream().filter(f -> f.checkId().equals(c.getKey())
          && f.severity() != Severity.INFO).toList();
      assertEquals(List.of(), none, "passing case of " + c.getKey());
      Path current = assembled(temp.resolve(c.getKey() + "/v2"));
      c.getValue().accept(current);
      if (c.getKey().equals("DIFF-GPU-ARCHS")) {
        copy(GateFixtures.release(2), current.resolve("libtransformer_engine.so"));
      }
      List<Finding> fired = diff(baseline, current).findings().stream().filter(f -> f.checkId().equals(c.getKey()))
          .toList();
      assertFalse(fired.isEmpty(), "failing case of " + c.getKey());
      for (Finding f : fired) {
        assertFalse(f.found().isBlank() || f.expected().isBlank() || f.fix().isBlank(), f.toString());
      }
    }));
  }

  @Test
  void releaseOneAgainstReleaseTwo() throws Exception {
    Path v1 = assembled(temp.resolve("v1"));
    Path v2 = assembled(temp.resolve("v2"));
    copy(GateFixtures.release(1), v1.resolve("libtransformer_engine.so"));
    copy(GateFixtures.release(2), v2.resolve("libtransformer_engine.so"));
    Path reports = temp.resolve("reports");
    GateReport report = new WheelDiff().diff(request(v1, v2, reports, List.of()));
    assertFalse(report.passed(), report.summary());
    Map<String, String> messages = report.findings().stream().filter(f -> f.file().endsWith("libtransformer_engine.so"))
        .collect(Collectors.toMap(f -> f.checkId() + "/" + f.severity(), Finding::found, (a, b) -> a + " | " + b));
    assertEquals("1 exported symbol removed: nvte_set_tensor_param", messages.get("DIFF-EXPORTS/ERROR"));
    assertEquals("1 exported symbol added: nvte_set_tensor_param_v2", messages.get("DIFF-EXPORTS/INFO"));
    assertEquals("a new DT_NEEDED libm.so.6", messages.get("DIFF-NEEDED/WARNING"));
    assertEquals("CUDA code dropped: sm_120", messages.get("DIFF-GPU-ARCHS/WARNING"));
    assertTrue(messages.get("DIFF-FILES/INFO").startsWith("changed content:"), messages.toString());
    // Same report forms as verify.
    Map<?, ?> json = (Map<?, ?>) Json.parse(Files.readString(reports.resolve(ReportKind.DIFF.jsonFileName())));
    assertEquals("te-wheel-diff-report/1", json.get("schema"));
    ReportSchemas.assertValid(ReportKind.DIFF, reports);
    Map<?, ?> total = (Map<?, ?>) json.get("totalSize");
    assertTrue(total.get("growthPercent") instanceof Double, "a number: " + total);
    assertEquals(10.0, total.get("maxGrowthPercent"));
    assertTrue(((List<?>) json.get("files")).size() > 5);
    String junit = Files.readString(reports.resolve("TEST-te-diff-wheel.xml"));
    assertTrue(junit.contains("<testsuite name=\"te:diff-wheel\""), junit);
    assertTrue(junit.contains("<failure type=\"ERROR\""), junit);
    // A suppression with its reason makes it pass; warnings stay below failOn error.
    GateReport accepted = new WheelDiff().diff(request(v1, v2, null,
        List.of(Suppression.parse("DIFF-EXPORTS: nvte_set_tensor_param was deprecated in 2.9"))));
    assertTrue(accepted.passed(), accepted.summary());
    assertEquals(1, accepted.suppressed().stream().filter(s -> s.finding().severity() == Severity.ERROR).count());
  }

  /**
   * A library the ELF reader refuses, on either side, is named with the reader's reason and fails the diff at the
   * default failOn: the ABI rules compare readable pairs only, so before DIFF-READABLE such a diff passed without
   * a single finding about the library (no DIFF-EXPORTS, no DIFF-SONAME).
   */
  @Test
  void anUnreadableLibraryOnEitherSideIsNamedAndFailsTheDiff() throws Exception {
    Path good = assembled(temp.resolve("readable/good"));
    Map<String, Consumer<Path>> breakages = new LinkedHashMap<>();
    breakages.put("not ELF", w -> write(w.resolve("libnccl_ep.so"), "#!/bin/sh\necho not a library\n"));
    breakages.put("truncated ELF", w -> {
      try {
        Path library = w.resolve("libnccl_ep.so");
        byte[] bytes = Files.readAllBytes(library);
        Files.write(library, java.util.Arrays.copyOf(bytes, 100));
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    for (Map.Entry<String, Consumer<Path>> breakage : breakages.entrySet()) {
      for (boolean baselineSide : new boolean[] {true, false}) {
        Path broken = assembled(temp.resolve("readable/" + breakage.getKey().replace(' ', '-') + "-" + baselineSide));
        breakage.getValue().accept(broken);
        GateReport report = baselineSide ? diff(broken, good) : diff(good, broken);
        String what = breakage.getKey() + (baselineSide ? " in the baseline" : " in this release");
        assertFalse(report.passed(), what + ": " + report.findings());
        List<Finding> readable = report.findings().stream().filter(f -> f.checkId().equals("DIFF-READABLE")).toList();
        assertEquals(1, readable.size(), what + ": " + report.findings());
        Finding finding = readable.get(0);
        assertEquals(broken.resolve("libnccl_ep.so").toString(), finding.file(), what);
        assertEquals(Severity.ERROR, finding.severity(), what);
        assertTrue(finding.found().startsWith("a library in " + (baselineSide ? "the baseline" : "this release")
            + " that cannot be read as ELF (") && finding.found().length() > 60, finding.found());
      }
    }
  }

  /** A baseline whose NCCL EP library links to NCCL outside it: refused by name, never read. */
  @Test
  void aBaselineLinkingOutOfItsFolderIsRefusedNotFollowed() throws Exception {
    Path baseline = assembled(temp.resolve("v1"));
    Path current = assembled(temp.resolve("v2"));
    Path outside = StandIns.ncclLibDir().resolve("libnccl.so.2").toRealPath();
    Files.delete(baseline.resolve("libnccl_ep.so"));
    Files.createSymbolicLink(baseline.resolve("libnccl_ep.so"), outside);
    GateReport report = diff(baseline, current);
    assertFalse(report.passed(), report.summary());
    List<Finding> input = report.findings().stream().filter(f -> f.checkId().equals("DIFF-INPUT")).toList();
    assertEquals(1, input.size(), input.toString());
    assertEquals(baseline.resolve("libnccl_ep.so").toString(), input.get(0).file());
    assertEquals(Severity.ERROR, input.get(0).severity());
    assertEquals("a symbolic link to " + outside + ", outside the folder; not followed", input.get(0).found());
    assertTrue(report.findings().stream().noneMatch(f -> f.checkId().equals("DIFF-EXPORTS")
        || f.checkId().equals("DIFF-SONAME")), "nothing of the library outside was read: " + report.findings());
  }

  @Test
  void unknownRuleIdsAndBadBudgetsAreConfigurationErrors() {
    Path p = temp;
    assertThrows(IllegalArgumentException.class, () -> new DiffRequest(p, p, "transformer_engine/wheel_lib",
        Layout.DEFAULT, 10, Severity.ERROR, Map.of("DIFF-NOPE", Severity.INFO), List.of(), null));
    assertThrows(IllegalArgumentException.class, () -> new DiffRequest(p, p, "transformer_engine/wheel_lib",
        Layout.DEFAULT, -1, Severity.ERROR, Map.of(), List.of(), null));
  }

  /** A budget of Infinity (or 1e999, which a double reads as Infinity) once ended in a NumberFormatException. */
  @Test
  void aBudgetThatIsNoFiniteNumberIsRefusedNamingTheParameter() {
    for (double budget : new double[] {Double.POSITIVE_INFINITY, Double.parseDouble("1e999"), Double.NaN,
        Double.NEGATIVE_INFINITY, -0.5}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new DiffRequest(temp, temp,
          "transformer_engine/wheel_lib", Layout.DEFAULT, budget, Severity.ERROR, Map.of(), List.of(), null));
      assertTrue(e.getMessage().startsWith("maxGrowthPercent " + budget + " is not a finite percentage of at least 0:"
          + " expected e.g. 10"), e.getMessage());
    }
  }

  @Test
  void layoutAnyComparesTheWholeWheel() throws Exception {
    // auditwheel's cffi test wheel (test resources auditwheel-bundled-wheels/): its module sits at the wheel's root.
    Path cffi = Path.of(getClass().getResource("/auditwheel-bundled-wheels/cffi-1.5.0-cp27-none-linux_x86_64.whl")
        .toURI());
    GateReport report = new WheelDiff().diff(new DiffRequest(cffi, cffi, null, Layout.ANY, 10, Severity.ERROR,
        Map.of(), List.of(), null));
    assertTrue(report.passed(), report.findings().toString());
    DiffDetails details = (DiffDetails) report.details();
    assertEquals("wheel cffi-1.5.0-cp27-none-linux_x86_64.whl (layout any)", details.current());
    assertTrue(details.files().stream().anyMatch(f -> f.path().equals("_cffi_backend.so")
        && f.change().name().equalsIgnoreCase("unchanged")), details.files().toString());
  }

  private GateReport diff(Path baseline, Path current) throws Exception {
    return new WheelDiff().diff(request(baseline, current, null, List.of()));
  }

  private static DiffRequest request(Path baseline, Path current, Path reports, List<Suppression> suppressions) {
    return new DiffRequest(baseline, current, "transformer_engine/wheel_lib", Layout.DEFAULT, 10, Severity.ERROR,
        Map.of(), suppressions, reports);
  }

  private static Path assembled(Path out) throws Exception {
    new Assembler(line -> { }).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(), out));
    Files.delete(out.resolve(Layout.MANIFEST)); // the manifest would only repeat DIFF-FILES
    return out;
  }

  private static void copy(Path from, Path to) {
    try {
      Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Replaces {@code file} by a symbolic link to {@code outside}, a file of the same bytes outside wheel_lib. */
  private static void linkOut(Path file, Path outside) {
    try {
      Files.delete(file);
      Files.createSymbolicLink(file, outside.toAbsolutePath());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void write(Path file, String text) {
    try {
      Files.writeString(file, text);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
