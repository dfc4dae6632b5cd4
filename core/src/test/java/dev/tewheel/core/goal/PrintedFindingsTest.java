package dev.tewheel.core.goal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import org.junit.jupiter.api.Test;

/** One finding, printed by the first goal of a build that reaches it; the next ones refer to that goal. */
class PrintedFindingsTest {
  private static Finding finding(String file) {
    return new Finding("TE-NEEDED", Severity.ERROR, file, "libfoo.so.1", "no such DT_NEEDED", "relink");
  }

  @Test
  void aFindingAnEarlierGoalPrintedIsReferredToWhereverItsFolderIs() {
    PrintedFindings printed = new PrintedFindings();
    assertNull(printed.earlier(finding("target/wheel/wheel_lib/libtransformer_engine.so"), "te:assemble-wheel-lib"));
    // verify names the same file inside the wheel; pack inside its staged tree
    assertEquals("te:assemble-wheel-lib", printed.earlier(finding("te.whl!libtransformer_engine.so"),
        "te:verify-wheel-lib"));
    assertEquals("te:assemble-wheel-lib", printed.earlier(finding("staged/libtransformer_engine.so"),
        "te:pack-wheel"));
  }

  @Test
  void aGoalPrintsItsOwnFindingsAgainAndOtherFindingsAreNew() {
    PrintedFindings printed = new PrintedFindings();
    assertNull(printed.earlier(finding("a/libtransformer_engine.so"), "te:verify-wheel-lib"));
    assertNull(printed.earlier(finding("a/libtransformer_engine.so"), "te:verify-wheel-lib"));
    assertNull(printed.earlier(finding("a/libnccl_ep.so"), "te:pack-wheel"));
    assertNull(printed.earlier(finding("a/libtransformer_engine.so").atLine(3), "te:pack-wheel"));
  }
}
