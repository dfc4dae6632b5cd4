package dev.tewheel.core.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.ReportKind;
import dev.tewheel.core.gate.ReportSchemas;
import dev.tewheel.core.gate.ReportWriter;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.gate.Suppression;
import dev.tewheel.json.Json;
import dev.tewheel.standins.StandIns.Defect;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Verify on wheel_lib folders: the assembled good tree passes; each way of breaking it is caught by its check. */
class VerifierTest {
  @TempDir Path temp;
  private Path wheelLib;

  @BeforeEach
  void assemble() throws Exception {
    wheelLib = temp.resolve("wheel_lib");
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(), wheelLib));
  }

  private GateReport verify() throws IOException {
    return verify(VerifyRequest.folder(wheelLib).withPlatformTag("manylinux_2_34_x86_64"));
  }

  private static GateReport verify(VerifyRequest request) throws IOException {
    return new Verifier().verify(request);
  }

  private static List<String> ids(GateReport report) {
    return report.findings().stream().map(f -> f.checkId() + "/" + f.severity()).distinct().toList();
  }

  @Test
  void theAssembledTreePassesWithTheBakedPathWarningOnly() throws Exception {
    GateReport report = verify();
    assertTrue(report.passed(), report.findings().toString());
    assertEquals(List.of("BAKED-BUILD-PATHS/WARNING", "SYMBOL-FLOOR/INFO"), ids(report), "SYMBOL-FLOOR: no floors");
    assertEquals(3, report.count(Severity.WARNING));
    assertFalse(verify(VerifyRequest.folder(wheelLib).withPlatformTag("manylinux_2_34_x86_64")
        .withFailOn(Severity.WARNING)).passed(), "failOn=warning fails on the warnings");
    assertTrue(report.summary().startsWith("PASSED: 0 errors, 3 warnings, 0 suppressed; "), report.summary());
  }

  @Test
  void strayFilesSymlinksAndModesAreReported() throws Exception {
    Files.writeString(wheelLib.resolve("notes.txt"), "left over");
    Files.createSymbolicLink(wheelLib.resolve("libnccl_ep.so.0"), Path.of("libnccl_ep.so"));
    Files.setPosixFilePermissions(wheelLib.resolve("libtransformer_engine.so"), PosixFilePermissions.fromString("rw-rw-rw-"));
    GateReport report = verify();
    assertFalse(report.passed());
    List<Finding> types = report.findings().stream().filter(f -> f.checkId().equals("LAYOUT-FILE-TYPES")).toList();
    assertEquals(List.of("a symbolic link", "mode 0666 (world-writable)", "mode 0666 on a shared library"),
        types.stream().map(Finding::found).sorted().toList());
    assertTrue(ids(report).contains("LAYOUT-UNEXPECTED/WARNING"), ids(report).toString());
  }

  @Test
  void aTamperedFileFailsTheManifest() throws Exception {
    Path header = wheelLib.resolve("nccl_ep/include/nccl_ep/ep_enums.h");
    Files.setPosixFilePermissions(header, PosixFilePermissions.fromString("rw-r--r--"));
    Files.writeString(header, Files.readString(header).replace("NCCL_EP_ALGO_LOW_LATENCY = 0", "NCCL_EP_ALGO_LOW_LATENCY = 9"));
    GateReport report = verify();
    Finding f = report.findings().stream().filter(x -> x.checkId().equals("MANIFEST-DIGESTS")).findFirst().orElseThrow();
    assertEquals(header.toString(), f.file());
    assertTrue(f.found().startsWith("sha256 "), f.found());
  }

  @Test
  void aLibraryCopiedOncePerSymlinkIsADuplicate() throws Exception {
    Files.copy(wheelLib.resolve("libnccl_ep.so"), wheelLib.resolve("libnccl_ep.so.0"));
    Files.copy(wheelLib.resolve("libnccl_ep.so"), wheelLib.resolve("libnccl_ep.so.0.1.0"));
    GateReport report = verify();
    List<Finding> duplicates = report.findings().stream().filter(f -> f.checkId().equals("DUPLICATE-CONTENT")).toList();
    assertEquals(2, duplicates.size(), duplicates.toString());
    assertTrue(duplicates.get(0).found().endsWith("as libnccl_ep.so"), duplicates.get(0).found());
  }

  @Test
  void thePlatformTagListsEveryTooRecentVersionAndWrongArchitectures() throws Exception {
    GateReport old = verify(VerifyRequest.folder(wheelLib).withPlatformTag("manylinux_2_28_x86_64"));
    List<Finding> platform = old.findings().stream().filter(f -> f.checkId().equals("PLATFORM")).toList();
    assertFalse(platform.isEmpty());
    // The TE stand-in (C++, built by this machine's g++ 12) needs GLIBCXX_3.4.29 and, calling dlopen, GLIBC_2.34
    // since libdl moved into libc; the NCCL EP stand-in needs no more than manylinux_2_28 allows.
    assertEquals(List.of("GLIBCXX_3.4.29 from libstdc++.so.6", "GLIBC_2.34 from libc.so.6"),
        platform.stream().map(Finding::found).toList(), platform.toString());
    assertEquals(List.of("GLIBCXX_3.4.24 or older for manylinux_2_28_x86_64",
        "GLIBC_2.28 or older for manylinux_2_28_x86_64"), platform.stream().map(Finding::expected).toList());
    assertEquals(List.of(wheelLib.resolve("libtransformer_engine.so").toString()),
        platform.stream().map(Finding::file).distinct().toList());

    GateReport arm = verify(VerifyRequest.folder(wheelLib).withPlatformTag("manylinux2014_aarch64"));
    assertTrue(arm.findings().stream().anyMatch(f -> f.checkId().equals("PLATFORM")
        && f.found().equals("x86_64 ELF64") && f.expected().startsWith("aarch64 ELF64")), arm.findings().toString());
    assertThrows(IllegalArgumentException.class,
        () -> verify(VerifyRequest.folder(wheelLib).withPlatformTag("macosx_11_0_arm64")));
  }

  @Test
  void anUnshippedDependencyIsReportedUnlessAllowed() throws Exception {
    Path lib = wheelLib.resolve("libtransformer_engine.so");
    Files.copy(StandIns.defect(Defect.TE_NEEDS_CUDA), lib, StandardCopyOption.REPLACE_EXISTING);
    GateReport report = verify();
    Finding deps = report.findings().stream().filter(f -> f.checkId().equals("DEPS-RESOLVE")).findFirst().orElseThrow();
    assertTrue(deps.found().startsWith("DT_NEEDED libcuda.so.1 that is neither shipped"), deps.found());
    assertTrue(ids(report).contains("TE-FORBIDDEN-NEEDED/ERROR"));
    assertTrue(ids(report).contains("MANIFEST-DIGESTS/ERROR"));
  }

  @Test
  void suppressionsNeedAReasonAndAreListedWithIt() throws Exception {
    VerifyRequest request = VerifyRequest.folder(wheelLib).withPlatformTag("manylinux_2_34_x86_64")
        .withFailOn(Severity.WARNING)
        .withSuppressions(List.of(new Suppression("BAKED-BUILD-PATHS", "config.h", "te-runtime sets NCCL_EP_HOME")));
    GateReport report = verify(request);
    assertTrue(report.passed(), report.findings().toString());
    assertEquals(3, report.suppressed().size());
    assertTrue(new ReportWriter(report).table().stream().map(dev.tewheel.core.gate.LogLine::text).toList().stream()
        .anyMatch(line -> line.startsWith("suppressed BAKED-BUILD-PATHS on ")), new ReportWriter(report).table().stream().map(dev.tewheel.core.gate.LogLine::text).toList()
        .toString());
    assertThrows(IllegalArgumentException.class, () -> new Suppression("BAKED-BUILD-PATHS", null, " "));
    assertThrows(IllegalArgumentException.class, () -> verify(request.withSuppressions(
        List.of(new Suppression("NO-SUCH-CHECK", null, "because")))));
  }

  @Test
  void severityOverridesChangeTheOutcome() throws Exception {
    Files.writeString(wheelLib.resolve("notes.txt"), "left over");
    GateReport report = verify(VerifyRequest.folder(wheelLib).withPlatformTag("manylinux_2_34_x86_64")
        .withSeverityOverrides(Map.of("LAYOUT-UNEXPECTED", Severity.ERROR)));
    assertFalse(report.passed());
  }

  @Test
  void writesJsonAndJunitReportsAtomically() throws Exception {
    Files.writeString(wheelLib.resolve("notes.txt"), "left over");
    Path reports = temp.resolve("reports");
    GateReport report = verify(VerifyRequest.folder(wheelLib).withPlatformTag("manylinux_2_34_x86_64")
        .withReportDirectory(reports).withFailOn(Severity.WARNING));
    @SuppressWarnings("unchecked")
    Map<String, Object> json = (Map<String, Object>) Json.parse(Files.readString(reports.resolve(ReportKind.VERIFY.jsonFileName())));
    assertEquals("te-wheel-verify-report/1", json.get("schema"));
    ReportSchemas.assertValid(ReportKind.VERIFY, reports);
    assertEquals(false, json.get("passed"));
    assertEquals(Map.of("error", 0L, "warning", 4L, "info", 1L, "suppressed", 0L), json.get("counts"), "info:"
        + " SYMBOL-FLOOR without floors");
    assertEquals(report.rules().size(), ((List<?>) json.get("checks")).size());
    String junit = Files.readString(reports.resolve(ReportKind.VERIFY.junitFileName()));
    assertTrue(junit.contains("failures=\"4\""), junit);
    assertTrue(Pattern.compile("<testcase classname=\"TE-BIND-NOW\" name=\"libtransformer_engine.so is linked with -z"
        + " now \\(BIND_NOW\\)\" time=\"\\d+\\.\\d{3}\"/>").matcher(junit).find(), junit);
    try (var files = Files.list(reports)) {
      assertEquals(3, files.count(), "report.json, the JUnit XML and verify.sarif; no temporary files left");
    }
  }

  @Test
  void aMissingFolderIsAnErrorNamingIt() {
    IOException e = assertThrows(IOException.class, () -> verify(VerifyRequest.folder(temp.resolve("nope"))));
    assertTrue(e.getMessage().contains(temp.resolve("nope").toString()), e.getMessage());
  }
}
