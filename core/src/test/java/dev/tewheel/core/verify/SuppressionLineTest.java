package dev.tewheel.core.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.ReportWriter;
import dev.tewheel.core.gate.Suppression;
import dev.tewheel.standins.StandIns;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Suppressions name a file and, optionally, a line; one that accepts nothing is reported, never silently kept. */
@Timeout(120)
class SuppressionLineTest {
  @TempDir Path temp;

  private GateReport verify(String... suppressions) throws Exception {
    Path wheelLib = temp.resolve("wheel_lib");
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(),
        wheelLib));
    return new Verifier().verify(VerifyRequest.folder(wheelLib).withPlatformTag("manylinux_2_34_x86_64")
        .withSuppressions(Suppression.parseAll(List.of(suppressions))));
  }

  @Test
  void fileColonLineIsPartOfTheFileNotOfTheReason() {
    Suppression s = Suppression.parse("BAKED-BUILD-PATHS@config.h:2: the runtime sets NCCL_EP_HOME");
    assertEquals("config.h", s.file());
    assertEquals(2, s.line());
    assertEquals("the runtime sets NCCL_EP_HOME", s.reason());
    Suppression noLine = Suppression.parse("BAKED-BUILD-PATHS@config.h: 2 paths are fine");
    assertEquals("config.h", noLine.file());
    assertNull(noLine.line());
    assertEquals("2 paths are fine", noLine.reason());
  }

  @Test
  void aSuppressionWithALineAcceptsOnlyTheFindingOnThatLine() throws Exception {
    // config.h's lines 2, 3 and 4 each name a build-machine path; line 2 is accepted, 3 and 4 stay findings.
    GateReport report = verify("BAKED-BUILD-PATHS@config.h:2: the runtime sets NCCL_EP_HOME");
    assertEquals(1, report.suppressed().size(), report.suppressed().toString());
    assertTrue(report.suppressed().get(0).finding().location().endsWith("config.h:2"));
    assertEquals(2, report.findings().stream().filter(f -> f.checkId().equals("BAKED-BUILD-PATHS")).count(),
        report.findings().toString());
    assertTrue(report.unmatchedSuppressions().isEmpty());
    assertFalse(verify("BAKED-BUILD-PATHS@config.h:20: no such line").findings().isEmpty(),
        "line 20 must not match line 2");
  }

  @Test
  void aSuppressionThatMatchedNothingIsWarnedAbout() throws Exception {
    GateReport report = verify("BAKED-BUILD-PATHS@config.h: the runtime sets NCCL_EP_HOME",
        "TE-BIND-NOW@libtransformer_engine.so: BOLT is off this release");
    assertEquals(3, report.suppressed().size());
    assertEquals(List.of("TE-BIND-NOW@libtransformer_engine.so"),
        report.unmatchedSuppressions().stream().map(Suppression::pattern).toList());
    List<String> warnings = new ReportWriter(report).warnings();
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).startsWith("suppression 'TE-BIND-NOW@libtransformer_engine.so: BOLT is off this"
        + " release' matched no finding"), warnings.get(0));
    assertTrue(new ReportWriter(report).json().contains("\"unmatchedSuppressions\""));
  }
}
