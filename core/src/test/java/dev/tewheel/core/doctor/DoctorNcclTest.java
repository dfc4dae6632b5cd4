package dev.tewheel.core.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.standins.StandIns;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NCCL after TE's import, in environments real pip made: NCCL EP's availability by TE's provider rule (a warning,
 * never an import failure), and a system NCCL that binds before pip's, named with both files and the variable that
 * fixes it; the fix applied, ctypes binds pip's copy.
 */
class DoctorNcclTest {
  @TempDir static Path root;
  static DoctorEnvironments environments;

  @BeforeAll
  static void build() {
    environments = new DoctorEnvironments(root);
  }

  private static DoctorReport examine(DoctorEnvironments.Environment env) {
    return Doctor.examine(new DoctorRequest(Optional.empty(), List.of(env.sitePackages()), env.variables()));
  }

  private static List<Finding> findings(DoctorReport report, String id) {
    return report.findings().stream().filter(f -> f.id().equals(id)).toList();
  }

  @Test
  void ncclEpIsAvailableWithTheShippedLibraryNccl2304HeadersAndNvcc() throws Exception {
    DoctorEnvironments.Environment env = environments.make("nccl-ep-available");
    DoctorReport report = examine(env);
    String context = String.join("\n", report.lines());
    assertEquals(DoctorReport.Verdict.WORKS, report.verdict(), context);
    assertEquals(List.of(), findings(report, "DOCTOR-NCCL-EP"), context);
    DoctorReport.NcclEp ep = report.ncclEp().orElseThrow();
    assertTrue(ep.available(), context);
    assertEquals(env.sitePackages().resolve("transformer_engine/wheel_lib/libnccl_ep.so"), ep.library().get());
    assertEquals(StandIns.NCCL_RELEASE, report.nccl().get().release().get().text(), context);
    assertEquals(Optional.of("nvidia-nccl-cu13==" + StandIns.NCCL_RELEASE), report.nccl().get().distribution());
  }

  @Test
  void aRelativePathEntryHoldingNvccIsNamedAndSkippedByTheRuleTeRuntimesPreflightApplies() throws Exception {
    DoctorEnvironments.Environment env = environments.fixed("nccl-ep-available", "nccl-ep-relative-path", List.of());
    Path nvcc = Path.of(env.variables().get("NCCL_EP_JIT_NVCC"));
    // A relative entry that reaches the nvcc from the folder doctor runs in, then a named folder without one.
    String entry = Path.of("").toAbsolutePath().relativize(nvcc.getParent()).toString();
    Map<String, String> variables = new HashMap<>(env.variables());
    variables.remove("NCCL_EP_JIT_NVCC");
    variables.put("PATH", entry + ":" + root);
    DoctorReport report = Doctor.examine(new DoctorRequest(Optional.empty(), List.of(env.sitePackages()),
        variables));
    String context = String.join("\n", report.lines());
    assertEquals(DoctorReport.Verdict.WORKS, report.verdict(), context);
    DoctorReport.NcclEp ep = report.ncclEp().orElseThrow();
    assertEquals(List.of(false, Optional.empty()), List.of(ep.available(), ep.nvcc()), context);
    List<String> messages = findings(report, "DOCTOR-NCCL-EP").stream().map(Finding::message).toList();
    String named = "the PATH entry '" + entry + "' (relative, so a folder below the current one)";
    assertEquals(List.of("NCCL EP unavailable: nvcc: " + named + " holds " + nvcc + ", which NCCL EP's JIT would"
        + " run before any nvcc in a named folder. Remove the entry from PATH, or set NCCL_EP_JIT_NVCC to the nvcc"
        + " to use", "NCCL EP unavailable: its JIT finds no nvcc (PATH; " + named + " is skipped: te-wheel runs and"
        + " loads nothing from a folder not named by an absolute path, so it looks for programs only in the other"
        + " entries. Name the folder by its absolute path, or remove the entry; it tries NCCL_EP_JIT_NVCC, NVCC,"
        + " $CUDA_HOME/bin/nvcc or $CUDA_PATH/bin/nvcc, then PATH)"), messages, context);
  }

  @Test
  void ncclBelow2304LeavesTheImportWorkingAndNcclEpUnavailableWithThePipFix() throws Exception {
    DoctorEnvironments.Environment env = environments.make("nccl-ep-old-nccl");
    DoctorReport report = examine(env);
    String context = String.join("\n", report.lines());
    assertEquals(DoctorReport.Verdict.WORKS, report.verdict(), context);
    assertEquals(0, report.verdict().exitStatus());
    assertTrue(!report.ncclEp().orElseThrow().available(), context);
    List<Finding> ep = findings(report, "DOCTOR-NCCL-EP");
    assertEquals(1, ep.size(), context);
    Finding f = ep.get(0);
    assertEquals(Finding.Severity.WARNING, f.severity());
    assertEquals(Optional.of(env.sitePackages().resolve("nvidia/nccl/lib/libnccl.so.2")), f.file(), context);
    assertEquals(Optional.of("nvidia-nccl-cu13==" + StandIns.OLD_NCCL_RELEASE), f.distribution(), context);
    assertTrue(f.message().contains("NCCL " + StandIns.OLD_NCCL_RELEASE + ", older than the 2.30.4"), context);
    assertEquals(Optional.of("pip install 'nvidia-nccl-cu13>=2.30.4'"), f.fix(), context);
  }

  @Test
  void aSystemNcclFirstOnLdLibraryPathIsNamedBesidePipsAndTheFixBindsPips() throws Exception {
    DoctorEnvironments.Environment env = environments.make("system-nccl-first");
    DoctorReport report = examine(env);
    String context = String.join("\n", report.lines());
    Path system = env.root().resolve("system/lib/libnccl.so.2");
    Path pip = env.sitePackages().resolve("nvidia/nccl/lib/libnccl.so.2");
    assertEquals(system, report.nccl().orElseThrow().file(), context);
    List<Finding> shadowed = findings(report, "DOCTOR-NCCL-SHADOWED");
    assertEquals(1, shadowed.size(), context);
    Finding f = shadowed.get(0);
    assertEquals(Optional.of(system), f.file());
    assertTrue(f.message().contains(pip.toString()) && f.message().contains("NCCL " + StandIns.OLD_NCCL_RELEASE)
        && f.message().contains("nvidia-nccl-cu13==" + StandIns.NCCL_RELEASE), context);
    String fix = "export LD_LIBRARY_PATH=" + pip.getParent() + "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}";
    assertEquals(Optional.of(fix), f.fix(), context);
    assertEquals(List.of(fix), findings(report, "DOCTOR-NCCL-EP").stream().map(e -> e.fix().get()).toList(),
        context);
    assertEquals(DoctorReport.Verdict.WORKS, report.verdict(), context);

    TeImportOracle before = TeImportOracle.run(env);
    assertEquals(List.of(system.toRealPath().toString()), before.ncclFiles(), "glibc binds the system copy");
    Map<String, String> fixed = new HashMap<>(env.variables());
    fixed.put("LD_LIBRARY_PATH", pip.getParent() + ":" + env.variables().get("LD_LIBRARY_PATH"));
    DoctorEnvironments.Environment after = new DoctorEnvironments.Environment(env.name(), env.root(),
        env.sitePackages(), fixed, env.expect());
    TeImportOracle oracle = TeImportOracle.run(after);
    assertEquals(List.of(pip.toRealPath().toString()), oracle.ncclFiles(), "the fix applied, glibc binds pip's");
    DoctorReport again = examine(after);
    assertEquals(List.of(), findings(again, "DOCTOR-NCCL-SHADOWED"), String.join("\n", again.lines()));
    assertTrue(again.ncclEp().orElseThrow().available(), String.join("\n", again.lines()));
  }
}
