package dev.tewheel.core.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.GatePolicy;
import dev.tewheel.core.gate.ReportKind;
import dev.tewheel.core.gate.ReportSchemas;
import dev.tewheel.core.verify.VerifyRequest;
import dev.tewheel.core.wheel.TestWheel;
import dev.tewheel.json.Json;
import dev.tewheel.standins.Gcc;
import dev.tewheel.standins.StandIns;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * te:verify-release on releases of stand-in wheels: a complete cu12 + cu13 release passes; one missing a variant,
 * holding a TE with fewer exports, a wheel without NCCL EP, other Python files or another version fails
 * RELEASE-MATRIX, naming the wheel or the gap.
 */
class ReleaseVerifierTest {
  private static final String INIT = "__version__ = '2.9.0'\n";

  @TempDir Path temp;

  private static String name(int major, String version, String platform) {
    return "transformer_engine_cu" + major + "-" + version + "-py3-none-" + platform + ".whl";
  }

  /** A wheel of the stand-ins (TE given, NCCL EP or not) named for its variant and platform. */
  private static void wheel(Path release, int major, String version, Path te, boolean ep, String init)
      throws Exception {
    TestWheel wheel = new TestWheel().add("transformer_engine/__init__.py", init.getBytes(StandardCharsets.UTF_8))
        .add(TestWheel.PREFIX + "/libtransformer_engine.so", te);
    if (ep) {
      wheel.add(TestWheel.PREFIX + "/libnccl_ep.so", StandIns.ncclEpLibrary())
          .addTree(TestWheel.PREFIX + "/nccl_ep/include", StandIns.ncclEpHome().resolve("include"));
    }
    wheel.fileName(name(major, version, "manylinux_2_34_x86_64"))
        .distInfo("transformer_engine_cu" + major + "-" + version + ".dist-info").write(release);
  }

  private Path release(String name) throws Exception {
    return Files.createDirectories(temp.resolve(name));
  }

  private ReleaseVerifier.Verdict verify(Path release, List<Integer> majors, List<String> platforms)
      throws Exception {
    Path reports = temp.resolve(release.getFileName() + "-reports");
    return new ReleaseVerifier().verify(new ReleaseRequest(release, ReleaseVerifier.wheelsIn(release), majors,
        platforms, (wheel, folder) -> VerifyRequest.wheel(wheel).withReportDirectory(folder), null,
        GatePolicy.of(ReleaseRules.RULES, null, Map.of(), List.of()), reports, null, 0));
  }

  private static List<Finding> matrix(ReleaseVerifier.Verdict verdict) {
    return verdict.report().findings().stream().filter(f -> f.checkId().equals(ReleaseMatrix.ID)).toList();
  }

  @Test
  void aCompleteReleaseOfCu12AndCu13PassesWithOneReport() throws Exception {
    Path release = release("complete");
    wheel(release, 12, "2.9.0", StandIns.transformerEngine(), true, INIT);
    wheel(release, 13, "2.9.0", StandIns.transformerEngine(), true, INIT);
    ReleaseVerifier.Verdict verdict = verify(release, List.of(12, 13), List.of("x86_64"));
    assertEquals(List.of(), matrix(verdict));
    assertTrue(verdict.report().passed(), verdict.report().summary());
    assertEquals(2, verdict.wheelReports().size());
    Path reports = temp.resolve("complete-reports");
    ReportSchemas.assertValid(ReportKind.RELEASE, reports);
    @SuppressWarnings("unchecked")
    Map<String, Object> json = (Map<String, Object>) Json.parse(Files.readString(reports.resolve("report.json")));
    assertEquals("te-wheel-release-report/1", json.get("schema"));
    assertEquals(2, ((List<?>) json.get("wheels")).size());
    for (int major : List.of(12, 13)) {
      String wheelName = name(major, "2.9.0", "manylinux_2_34_x86_64");
      ReportSchemas.assertValid(ReportKind.VERIFY, reports.resolve(wheelName.substring(0, wheelName.length() - 4)));
    }
    assertTrue(verdict.report().summary().startsWith("PASSED: 0 errors, 6 warnings, 0 suppressed; 35 checks on"
        + " release " + release + " (2 wheels)"), verdict.report().summary());
  }

  @Test
  void aMissingVariantOrPlatformIsNamed() throws Exception {
    Path release = release("missing");
    wheel(release, 12, "2.9.0", StandIns.transformerEngine(), true, INIT);
    ReleaseVerifier.Verdict verdict = verify(release, List.of(12, 13), List.of("x86_64", "aarch64"));
    assertEquals(List.of("no cu12 wheel for aarch64", "no cu13 wheel for aarch64", "no cu13 wheel for x86_64"),
        matrix(verdict).stream().map(Finding::found).toList());
    assertEquals(release.toString(), matrix(verdict).get(0).file());
    assertTrue(!verdict.report().passed());
  }

  @Test
  void aVariantWithFewerExportsOrWithoutNcclEpIsNamed() throws Exception {
    Path c = temp.resolve("reduced.c");
    Files.writeString(c, "void nvte_ep_initialize(void) {}\nvoid nvte_ep_shutdown(void) {}\n");
    Path reduced = temp.resolve("reduced/libtransformer_engine.so");
    Files.createDirectories(reduced.getParent());
    Gcc.run("-shared", "-fPIC", "-Wl,-z,now", "-Wl,-soname,libtransformer_engine.so", "-o",
        reduced.toString(), c.toString());
    Path release = release("reduced");
    wheel(release, 12, "2.9.0", StandIns.transformerEngine(), true, INIT);
    wheel(release, 13, "2.9.0", reduced, false, INIT);
    List<Finding> findings = matrix(verify(release, List.of(), List.of()));
    String cu13 = release.resolve(name(13, "2.9.0", "manylinux_2_34_x86_64")).toString();
    assertEquals(List.of(cu13, cu13), findings.stream().map(Finding::file).toList());
    assertTrue(findings.get(0).found().matches("a TE exporting \\d+ nvte_\\* functions fewer than the release's"
        + " other wheels: .*nvte_.*"), findings.get(0).found());
    assertEquals("a wheel without NCCL EP, which " + name(12, "2.9.0", "manylinux_2_34_x86_64") + " ship",
        findings.get(1).found());
  }

  @Test
  void otherPythonFilesOrAnotherVersionFail() throws Exception {
    Path release = release("mixed");
    wheel(release, 12, "2.9.0", StandIns.transformerEngine(), true, INIT);
    wheel(release, 13, "2.9.1", StandIns.transformerEngine(), true, "__version__ = '2.9.1'\n");
    List<String> found = matrix(verify(release, List.of(12, 13), List.of("x86_64"))).stream().map(Finding::found)
        .toList();
    assertEquals(List.of("2 versions: 2.9.0 (" + name(12, "2.9.0", "manylinux_2_34_x86_64") + "), 2.9.1 ("
        + name(13, "2.9.1", "manylinux_2_34_x86_64") + ")", "1 Python file unlike " + name(12, "2.9.0",
        "manylinux_2_34_x86_64") + "'s: transformer_engine/__init__.py (other bytes)"), found);
  }
}
