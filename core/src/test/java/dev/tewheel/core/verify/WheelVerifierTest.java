package dev.tewheel.core.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.wheel.TestWheel;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Verify on a .whl: the platform comes from the file name, wheel-level checks run, the wheel is read in place. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
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
    GateReport report = new Verifier().verify(VerifyRequest.wheel(whl));
    assertEquals("manylinux_2_28_x86_64", report.platformTag());
    assertEquals("wheel_lib " + whl.getFileName() + "!" + TestWheel.PREFIX, report.subject());
    List<Finding> errors = report.findings().stream().filter(f -> f.severity().name().equals("ERROR")).toList();
    // GLIBCXX and GLIBC of the C++ TE stand-in, each its own finding.
    assertEquals(2, errors.size(), errors.toString());
    assertEquals(List.of("PLATFORM"), errors.stream().map(Finding::checkId).distinct().toList());
    assertEquals(List.of(whl + "!" + TestWheel.PREFIX + "/libtransformer_engine.so"),
        errors.stream().map(Finding::file).distinct().toList());
    assertFalse(report.passed());
    // The tag the libraries allow: GLIBC_2.34 of the TE stand-in; its libnccl.so.2 (an NVIDIA wheel library) and
    // NCCL EP's libcuda.so.1 do not make it linux_x86_64, as auditwheel would.
    assertEquals("manylinux_2_34_x86_64", report.details().json().get(Verifier.SUGGESTED_TAG));
    try (var files = Files.list(whl.getParent())) {
      assertEquals(List.of(whl), files.toList(), "nothing was extracted beside the wheel");
    }
  }

  @Test
  void aNewerTagPassesAndReportsGoWhereAsked() throws Exception {
    Path whl = wheelOfAssembledTree();
    GateReport report = new Verifier().verify(VerifyRequest.wheel(whl).withPlatformTag("manylinux_2_34_x86_64")
        .withReportDirectory(temp.resolve("reports")));
    assertTrue(report.passed(), report.findings().toString());
    assertTrue(Files.readString(temp.resolve("reports/report.json")).contains("\"passed\": true"));
  }

  /**
   * The wheel reader once capped the manifest at 4 MiB, while every other reader holds it to Manifest.MAX_BYTES: a
   * longer manifest was dropped inside a wheel, and with it the layout it names.
   */
  @Test
  void aManifestBetween4And16MiBIsJudgedInAWheelAsInAFolder() throws Exception {
    Path wheelLib = temp.resolve("staging/wheel_lib");
    // The ep-home layout, which only the manifest names: a wheel reader that drops it falls back to the default.
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(), wheelLib)
        .withLayout(Layout.EP_HOME));
    Path manifest = wheelLib.resolve(Layout.MANIFEST);
    // Trailing JSON whitespace: the same manifest, 6 MiB long.
    Files.writeString(manifest, Files.readString(manifest) + " ".repeat(6 << 20));
    assertTrue(Files.size(manifest) > 4 << 20 && Files.size(manifest) < Manifest.MAX_BYTES);
    assertEquals(List.of(), sameVerdicts(wheelLib, "good"));
    Files.writeString(wheelLib.resolve("nccl_ep/include/nccl_ep/ep_enums.h"), "// changed\n");
    assertEquals(List.of("MANIFEST-DIGESTS/ERROR"), sameVerdicts(wheelLib, "changed"));
  }

  /** The IDs of verify's findings on the folder, asserted equal to those on a wheel of it (wheel-level IDs aside). */
  private List<String> sameVerdicts(Path wheelLib, String name) throws Exception {
    Path whl = new TestWheel().addTree(TestWheel.PREFIX, wheelLib).store(TestWheel.PREFIX + "/" + Layout.MANIFEST)
        .write(Files.createDirectories(temp.resolve(name)));
    GateReport folder = new Verifier().verify(VerifyRequest.folder(wheelLib)
        .withPlatformTag("manylinux_2_34_x86_64"));
    GateReport wheel = new Verifier().verify(VerifyRequest.wheel(whl).withPlatformTag("manylinux_2_34_x86_64"));
    assertEquals(ids(folder), ids(wheel), "folder: " + folder.findings() + "\nwheel: " + wheel.findings());
    assertEquals(folder.passed(), wheel.passed(), wheel.findings().toString());
    return ids(folder).stream().filter(id -> id.endsWith("/ERROR")).toList();
  }

  private static List<String> ids(GateReport report) {
    return report.findings().stream().filter(f -> !f.checkId().startsWith("WHEEL-")
        && !f.checkId().equals(dev.tewheel.core.check.floor.DepsDeclaredCheck.ID)) // METADATA's, a wheel's only
        .map(f -> f.checkId() + "/" + f.severity()).distinct().sorted().toList();
  }

  @Test
  void layoutAnyChecksEverySharedObjectOfTheWholeWheelWithoutTheLayoutChecks() throws Exception {
    Path whl = wheelOfAssembledTree();
    GateReport report = new Verifier().verify(VerifyRequest.wheel(whl).withPlatformTag("manylinux_2_34_x86_64")
        .withLayout(Layout.ANY));
    assertEquals("wheel " + whl.getFileName() + " (layout any)", report.subject());
    assertEquals(17, report.rules().size());
    assertTrue(report.rules().stream().noneMatch(c -> c.id().startsWith("LAYOUT-") || c.id().startsWith("TE-")
        || c.id().startsWith("EP-") || c.id().equals("MANIFEST-DIGESTS")), report.rules().toString());
    @SuppressWarnings("unchecked")
    List<java.util.Map<String, Object>> libraries =
        (List<java.util.Map<String, Object>>) report.details().json().get("libraries");
    assertEquals(List.of(TestWheel.PREFIX + "/libnccl_ep.so", TestWheel.PREFIX + "/libtransformer_engine.so"),
        libraries.stream().map(l -> l.get("path")).sorted().toList(), "paths in the wheel, not in wheel_lib");
    // libnccl_ep.so's libcuda.so.1 is allowed for any library here: the kinds are TE's rules.
    assertEquals(List.of(), report.findings().stream().filter(f -> f.severity().name().equals("ERROR")).toList());
    assertTrue(report.passed());
    assertEquals("manylinux_2_34_x86_64", report.details().json().get(Verifier.SUGGESTED_TAG));
  }
}
