package dev.tewheel.core.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Judged;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.policy.PlatformTag;
import dev.tewheel.gatefixtures.GateFixtures;
import dev.tewheel.standins.StandIns;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** GPU-ARCHS, EXEC-STACK, ISA-LEVEL in detail, on nvcc- and gcc-built libraries (gate-fixtures.mk). */
class GateChecksTest {
  private static final PlatformTag TAG = PlatformTag.parse("manylinux_2_34_x86_64");

  @Test
  void gpuArchsSassPtxFallbackAndMissing() {
    // libmixed.so: SASS sm_80, sm_90a, sm_100f; PTX compute_120.
    Map<String, String> byArch = gpuFindings(GateFixtures.mixed(), "80,86,89,90,100,103,110,120,121");
    assertEquals(Map.of("110", "ERROR", "120", "WARNING", "121", "WARNING"), byArch,
        "sm_80 runs on 8.6 and 8.9; sm_90a on 9.0; sm_100f on 10.0 and 10.3; compute_120 JITs for 12.x only");
    // PTX-only: compute_80 JITs for 80 and 90 (warning), nothing below 80 runs (error).
    assertEquals(Map.of("75", "ERROR", "80", "WARNING", "90", "WARNING"), gpuFindings(GateFixtures.ptxOnly(), "75,80,90"));
    // SASS-only, declared exactly: nothing to say.
    assertEquals(Map.of(), gpuFindings(GateFixtures.sassOnly(), "80,90"));
    // Arch-specific declarations need the a variant.
    assertEquals(Map.of("90a", "ERROR"), gpuFindings(GateFixtures.sassOnly(), "90a"));
    assertEquals(Map.of(), gpuFindings(GateFixtures.mixed(), "90a,100f"));
    // Compressed entries count like any other.
    assertEquals(Map.of(), gpuFindings(GateFixtures.zstdCompressed(), "89"));
    assertEquals(Map.of("90", "WARNING"), gpuFindings(GateFixtures.relocatable(), "80,90"));
  }

  @Test
  void gpuArchsMessageNamesLibraryAndArchitecture() {
    List<Finding> findings = run(GateFixtures.sassOnly(), CheckSettings.defaults().withCudaArchitectures(
        List.of("80", "90", "120")), "GPU-ARCHS");
    assertEquals(1, findings.size(), findings.toString());
    Finding f = findings.get(0);
    assertEquals(Severity.ERROR, f.severity());
    assertTrue(f.file().endsWith("libsass-only.so"), f.file());
    assertTrue(f.found().startsWith("SASS sm_80, sm_90 and no PTX: nothing that runs on sm_120"), f.found());
    assertTrue(f.fix().contains("-gencode arch=compute_120,code=sm_120"), f.fix());
  }

  @Test
  void badArchitectureDeclarationIsAConfigurationError() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CheckSettings.defaults().withCudaArchitectures(List.of("80,hopper")));
    assertTrue(e.getMessage().contains("'hopper'"), e.getMessage());
  }

  @Test
  void execStackMissingOrExecutable() {
    Finding exec = run(GateFixtures.execStack(), CheckSettings.defaults(), "EXEC-STACK").get(0);
    assertTrue(exec.found().startsWith("PT_GNU_STACK with flags RWE"), exec.found());
    assertTrue(exec.found().contains("glibc 2.41"), exec.found());
    Finding none = run(GateFixtures.noGnuStack(), CheckSettings.defaults(), "EXEC-STACK").get(0);
    assertTrue(none.found().startsWith("no PT_GNU_STACK program header"), none.found());
    assertTrue(none.found().contains("refuse to dlopen"), none.found());
    assertEquals(List.of(), run(GateFixtures.noExecStack(), CheckSettings.defaults(), "EXEC-STACK"));
  }

  @Test
  void isaLevelAgainstTheTag() {
    List<Finding> v3 = run(GateFixtures.isaV3(), CheckSettings.defaults().withPlatform(TAG), "ISA-LEVEL");
    assertEquals(1, v3.size());
    assertEquals(Severity.WARNING, v3.get(0).severity());
    assertTrue(v3.get(0).found().startsWith("x86-64-v3 needed"), v3.get(0).found());
    assertTrue(v3.get(0).expected().contains("manylinux_2_34_x86_64"), v3.get(0).expected());
    assertEquals(1, run(GateFixtures.isaV2(), CheckSettings.defaults().withPlatform(TAG), "ISA-LEVEL").size());
    // No tag (assemble): nothing to hold it to.
    assertEquals(List.of(), run(GateFixtures.isaV3(), CheckSettings.defaults(), "ISA-LEVEL"));
  }

  @Test
  void aarch64BranchProtectionIsInformation() {
    List<Finding> findings = run(StandIns.aarch64("libtransformer_engine.so"), CheckSettings.defaults(),
        "AARCH64-BTI-PAC");
    assertEquals(1, findings.size());
    assertEquals(Severity.INFO, findings.get(0).severity());
    assertEquals("neither BTI nor PAC marked", findings.get(0).found());
  }

  private static Map<String, String> gpuFindings(Path library, String declared) {
    return run(library, CheckSettings.defaults().withCudaArchitectures(List.of(declared)), "GPU-ARCHS").stream()
        .collect(Collectors.toMap(f -> f.found().replaceAll("(?s).*(?:runs on|no SASS for) sm_(\\w+).*", "$1"),
            f -> f.severity().name()));
  }

  private static List<Finding> run(Path library, CheckSettings settings, String id) {
    Subject subject = new Subject("test", Layout.DEFAULT,
        List.of(SubjectFile.onDisk("libtransformer_engine.so", library)), settings);
    return Judged.findings(subject, Map.of()).stream().filter(f -> f.checkId().equals(id)).toList();
  }
}
