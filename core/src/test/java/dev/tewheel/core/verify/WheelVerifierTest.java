package dev.tewheel.core.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.check.Finding;
import dev.tewheel.core.wheel.TestWheel;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Verify on a .whl: the platform comes from the file name, wheel-level checks run, the wheel is read in place. */
class WheelVerifierTest {
  @TempDir Path temp;

  private Path wheelOfAssembledTree() throws Exception {
    Path wheelLib = temp.resolve("staging/wheel_lib");
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(), wheelLib));
    return new TestWheel().addTree(TestWheel.PREFIX, wheelLib).write(Files.createDirectories(temp.resolve("dist")));
  }

  @Test
  void thePlatformTagOfTheFileNameIsHeldToAndReportedPerLibrary() throws Exception {
    Path whl = wheelOfAssembledTree();
    VerifyReport report = new Verifier().verify(VerifyRequest.wheel(whl));
    assertEquals("manylinux_2_28_x86_64", report.platformTag());
    assertEquals("wheel_lib " + whl.getFileName() + "!" + TestWheel.PREFIX, report.subject());
    List<Finding> errors = report.findings().stream().filter(f -> f.severity().name().equals("ERROR")).toList();
    // GLIBCXX and GLIBC of the C++ TE stand-in, each its own finding.
    assertEquals(2, errors.size(), errors.toString());
    assertEquals(List.of("PLATFORM"), errors.stream().map(Finding::checkId).distinct().toList());
    assertEquals(List.of(whl + "!" + TestWheel.PREFIX + "/libtransformer_engine.so"),
        errors.stream().map(Finding::file).distinct().toList());
    assertFalse(report.passed());
    try (var files = Files.list(whl.getParent())) {
      assertEquals(List.of(whl), files.toList(), "nothing was extracted beside the wheel");
    }
  }

  @Test
  void aNewerTagPassesAndReportsGoWhereAsked() throws Exception {
    Path whl = wheelOfAssembledTree();
    VerifyReport report = new Verifier().verify(VerifyRequest.wheel(whl).withPlatformTag("manylinux_2_34_x86_64")
        .withReportDirectory(temp.resolve("reports")));
    assertTrue(report.passed(), report.findings().toString());
    assertTrue(Files.readString(temp.resolve("reports/report.json")).contains("\"passed\": true"));
  }
}
