package dev.tewheel.core.check.floor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.verify.Verifier;
import dev.tewheel.core.verify.VerifyRequest;
import dev.tewheel.core.wheel.FloorWheels;
import dev.tewheel.core.wheel.TestWheel;
import dev.tewheel.standins.StandIns.Defect;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DEPS-DECLARED on real wheels: a TE whose BIND_NOW import ncclCommWindowRegister came with NCCL 2.27 (the window
 * API NCCL EP and TE's comm windows use), NCCL EP, and floor wheels of NCCL 2.21.5 and 2.30.4 made from the
 * stand-ins, as pip downloads them.
 */
public class DepsDeclaredCheckTest {
  private static final String ID = DepsDeclaredCheck.ID;
  private static final String METADATA = "transformer_engine_cu12-2.9.0-py3-none-manylinux_2_28_x86_64.whl"
      + "!transformer_engine_cu12-2.9.0.dist-info/METADATA";

  @TempDir Path temp;

  private Path ncclWheel(String distribution, String release, Path library, String metadataVersion)
      throws IOException {
    return FloorWheels.nccl(temp, distribution, release, library, metadataVersion);
  }

  private Path oldest() throws IOException {
    return ncclWheel("nvidia-nccl-cu12", StandIns.OLDEST_NCCL_RELEASE,
        StandIns.oldestNcclLibDir().resolve("libnccl.so." + StandIns.OLDEST_NCCL_RELEASE), StandIns.OLDEST_NCCL_RELEASE);
  }

  private Path current() throws IOException {
    return ncclWheel("nvidia-nccl-cu12", StandIns.NCCL_RELEASE,
        StandIns.ncclLibDir().resolve("libnccl.so." + StandIns.NCCL_RELEASE), StandIns.NCCL_RELEASE);
  }

  /** The TE calling ncclCommWindowRegister, NCCL EP and its headers, with these METADATA lines. */
  private Path wheel(String fileName, String... metadata) throws IOException {
    Path folder = Files.createDirectories(temp.resolve("w" + Math.abs((fileName + List.of(metadata)).hashCode())));
    String dist = fileName.substring(0, fileName.indexOf('-', fileName.indexOf('-') + 1));
    return new TestWheel().add("transformer_engine/__init__.py", "# stand-in\n".getBytes(StandardCharsets.UTF_8))
        .add(TestWheel.PREFIX + "/libtransformer_engine.so", StandIns.defect(Defect.TE_CALLS_WINDOW_REGISTER))
        .add(TestWheel.PREFIX + "/libnccl_ep.so", StandIns.ncclEpLibrary())
        .addTree(TestWheel.PREFIX + "/nccl_ep/include", StandIns.ncclEpHome().resolve("include"))
        .fileName(fileName).distInfo(dist + ".dist-info").metadata(metadata).write(folder);
  }

  private Path cu12(String... metadata) throws IOException {
    return wheel(TestWheel.FILE_NAME, metadata);
  }

  private static List<Finding> depsDeclared(Path whl, List<Path> floors) throws IOException {
    GateReport report = new Verifier().verify(VerifyRequest.wheel(whl)
        .withSettings(CheckSettings.defaults().withFloorLibraries(floors)));
    return report.findings().stream().filter(f -> f.checkId().equals(ID)).toList();
  }

  private static List<Finding> atLeastWarning(List<Finding> findings) {
    return findings.stream().filter(f -> f.severity() != Severity.INFO).toList();
  }

  @Test
  void aMinimumBelowWhatTheLibrariesBindFailsWhenItsFloorWheelIsGiven() throws Exception {
    Path old = oldest();
    List<Finding> findings = depsDeclared(cu12("Requires-Dist: nvidia-nccl-cu12>=2.21.5"), List.of(old));
    assertEquals(1, findings.size(), findings.toString());
    Finding f = findings.get(0);
    assertEquals(Severity.ERROR, f.severity());
    assertTrue(f.file().endsWith("/" + METADATA), f.file());
    assertEquals(4, f.line(), "the Requires-Dist line of METADATA");
    assertTrue(f.found().startsWith("Requires-Dist: nvidia-nccl-cu12>=2.21.5: the libraries do not bind on its floor"
        + " wheel nvidia_nccl_cu12-2.21.5-py3-none-manylinux_2_18_x86_64.whl: ncclCommWindowRegister (needed by"
        + " libtransformer_engine.so), which " + old + "!nvidia/nccl/lib/libnccl.so.2 (NCCL 2.21.5) does not"
        + " define; ncclCommWindowDeregister (needed by libtransformer_engine.so)"), f.found());
    assertEquals("every symbol and version the shipped libraries bind in nvidia-nccl-cu12 defined by its 2.21.5 wheel",
        f.expected());
    assertEquals("raise the minimum to a version whose wheel passes and give that wheel as the floor, or rebuild the"
        + " libraries against nvidia-nccl-cu12 2.21.5 so they no longer need what it lacks", f.fix());
  }

  @Test
  void aMinimumWithoutItsFloorWheelFailsWhetherOtherFloorsAreGivenOrNone() throws Exception {
    Path whl = cu12("Requires-Dist: nvidia-nccl-cu12>=2.21.5");
    List<Finding> withOther = atLeastWarning(depsDeclared(whl, List.of(current())));
    assertEquals(1, withOther.size(), withOther.toString());
    assertEquals("Requires-Dist: nvidia-nccl-cu12>=2.21.5: the minimum 2.21.5 is not proven: the floor wheel given"
        + " is 2.30.4 (nvidia_nccl_cu12-2.30.4-py3-none-manylinux_2_18_x86_64.whl)", withOther.get(0).found());
    assertEquals("give the nvidia-nccl-cu12 2.21.5 wheel in te.floorLibraries (pip download nvidia-nccl-cu12==2.21.5"
        + " --no-deps), or declare nvidia-nccl-cu12>=2.30.4, the version proven", withOther.get(0).fix());
    List<Finding> none = depsDeclared(whl, List.of());
    assertEquals(List.of(Severity.ERROR, Severity.INFO), none.stream().map(Finding::severity).toList(),
        none.toString());
    assertEquals("Requires-Dist: nvidia-nccl-cu12>=2.21.5: the minimum 2.21.5 is not proven: no floor wheel of"
        + " nvidia-nccl-cu12 is given", none.get(0).found());
    assertEquals("no floorLibraries, so no Requires-Dist minimum is proven; the libraries NEED nvidia-nccl-cu12"
        + " (libnccl.so.2)", none.get(1).found());
  }

  @Test
  void theMinimumOfAPassingFloorWheelPasses() throws Exception {
    assertEquals(List.of(), depsDeclared(cu12("Requires-Dist: nvidia-nccl-cu12>=2.30.4"), List.of(current())));
    assertEquals(List.of(), depsDeclared(cu12("Provides-Extra: floors",
        "Requires-Dist: nvidia-nccl-cu12 (>=2.30.4.0) ; extra == \"floors\""), List.of(current())),
        "an extra's line counts, and 2.30.4.0 is 2.30.4 to pip");
  }

  @Test
  void aCu12DistributionInACu13WheelFails() throws Exception {
    Path whl = wheel("transformer_engine_cu13-2.9.0-py3-none-manylinux_2_28_x86_64.whl",
        "Requires-Dist: nvidia-cublas-cu12>=12.8", "Requires-Dist: Nvidia_NCCL.cu12>=2.30.4");
    List<Finding> findings = atLeastWarning(depsDeclared(whl, List.of()));
    assertEquals(List.of("Requires-Dist: nvidia-cublas-cu12>=12.8: nvidia-cublas-cu12 is a CUDA 12 distribution"
        + " (libcublas.so.12, libcublasLt.so.12 in nvidia/cublas/lib) in a cu13 wheel", "Requires-Dist:"
        + " Nvidia_NCCL.cu12>=2.30.4: nvidia-nccl-cu12 is a CUDA 12 distribution (libnccl.so.2 in nvidia/nccl/lib) in"
        + " a cu13 wheel"), findings.stream().map(Finding::found).toList());
    assertEquals("declare nvidia-nccl-cu13 with its proven minimum instead, or pack this wheel as cu12"
        + " (te.cudaMajor=12)", findings.get(1).fix());
    assertEquals(List.of(4, 5), findings.stream().map(Finding::line).toList());
  }

  @Test
  void aPassingFloorWheelNotDeclaredIsAWarningWithTheLineToAdd() throws Exception {
    Path current = current();
    for (Path whl : List.of(cu12(), cu12("Requires-Dist: nvidia-nccl-cu12>=2.30.4; sys_platform == \"win32\""))) {
      List<Finding> findings = depsDeclared(whl, List.of(current));
      assertEquals(1, findings.size(), whl + ": " + findings);
      assertEquals(Severity.WARNING, findings.get(0).severity());
      assertEquals("Requires-Dist: nvidia-nccl-cu12>=2.30.4", findings.get(0).expected());
      assertTrue(findings.get(0).fix().startsWith("add the line 'Requires-Dist: nvidia-nccl-cu12>=2.30.4'"));
    }
  }

  @Test
  void noMinimumALegacyClauseAnUnreadableLineAndARenamedFloorWheelAreErrors() throws Exception {
    Path renamed = ncclWheel("nvidia-nccl-cu12", "2.21.5", StandIns.ncclLibDir().resolve("libnccl.so."
        + StandIns.NCCL_RELEASE), StandIns.NCCL_RELEASE);
    List<Finding> findings = atLeastWarning(depsDeclared(cu12("Requires-Dist: nvidia-nccl-cu12",
        "Requires-Dist: nvidia-cudnn-cu12>=9.x", "Requires-Dist: torch (>=2"), List.of(renamed)));
    assertEquals(List.of("Requires-Dist: torch (>=2, which pip cannot read ('torch (>=2' is no PEP 508 requirement:"
        + " expected a version specifier, ';' and a marker, or the end at position 6)",
        "a floor wheel whose version is unknown: METADATA Version: 2.30.4 where its file name says 2.21.5",
        "Requires-Dist: nvidia-nccl-cu12: no minimum, so pip keeps any older nvidia-nccl-cu12 already installed",
        "Requires-Dist: nvidia-cudnn-cu12>=9.x: >=9.x is no PEP 440 version specifier"),
        findings.stream().map(Finding::found).toList());
  }

  @Test
  void aReleasesFloorsOfBothCudaMajorsServeEachVariantWithItsOwn() throws Exception {
    Path cu13 = ncclWheel("nvidia-nccl-cu13", StandIns.NCCL_RELEASE,
        StandIns.ncclLibDir().resolve("libnccl.so." + StandIns.NCCL_RELEASE), StandIns.NCCL_RELEASE);
    List<Path> floors = List.of(current(), cu13);
    GateReport report = new Verifier().verify(VerifyRequest.wheel(cu12("Requires-Dist: nvidia-nccl-cu12>=2.30.4"))
        .withSettings(CheckSettings.defaults().withFloorLibraries(floors)));
    List<Finding> floorFindings = report.findings().stream().filter(f -> f.checkId().equals("SYMBOL-FLOOR")
        || f.checkId().equals(ID)).filter(f -> f.severity() != Severity.INFO).toList();
    assertEquals(List.of(), floorFindings, "one floor of libnccl.so.2 for the cu12 wheel, its own");
    assertTrue(report.findings().stream().anyMatch(f -> f.checkId().equals("SYMBOL-FLOOR") && f.file().equals(
        cu13.toString()) && f.found().equals("a floor wheel of nvidia-nccl-cu13, a CUDA 13 distribution: not a floor"
        + " of this cu12 wheel")), report.findings().toString());
  }
}
