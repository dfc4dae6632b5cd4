package dev.tewheel.core.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The differential test: in every environment real pip made (and the two on NVIDIA's real bytes), doctor's
 * prediction equals what Python's ctypes does in TE's order with the real glibc: whether the import works, and where
 * it fails, the stage, the file, and the SONAME, version or symbol glibc could not find; a failure names a fix.
 */
class DoctorMatchesCtypesTest extends EveryEnvironment {
  @ParameterizedTest
  @MethodSource("names")
  void doctorPredictsWhatCtypesDoes(String name) throws Exception {
    DoctorEnvironments.Environment env = environments.make(name);
    TeImportOracle oracle = TeImportOracle.run(env);
    DoctorReport report = Doctor.examine(new DoctorRequest(Optional.empty(), List.of(env.sitePackages()),
        env.variables()));
    String context = name + ": oracle " + oracle + "\ndoctor " + String.join("\n", report.lines());
    assertEquals(oracle.ok() ? DoctorReport.Verdict.WORKS : DoctorReport.Verdict.FAILS, report.verdict(), context);
    if (oracle.ok()) {
      // The libnccl.so.2 doctor says binds (read, not loaded) is the one glibc maps, of the release it reports:
      // wherever NCCL concerns TE (torch maps it, or TE ships NCCL EP); doctor is silent on NCCL elsewhere.
      boolean concerned = report.ncclEp().isPresent() || report.nccl().isPresent()
          || report.distributions().stream().anyMatch(d -> d.key().equals("torch"));
      if (concerned) {
        List<String> predicted = new java.util.ArrayList<>();
        for (DoctorReport.Nccl n : report.nccl().stream().toList()) {
          predicted.add(n.file().toRealPath().toString());
        }
        assertEquals(predicted, oracle.ncclFiles(), "the libnccl.so.2 that binds: " + context);
        report.nccl().ifPresent(n -> assertEquals(Optional.of(oracle.ncclVersion()), n.release().map(r -> r.code()),
            context));
      }
      return;
    }
    assertTrue(report.findings().stream().anyMatch(f -> f.severity() == Finding.Severity.ERROR
        && f.fix().isPresent()), "a failure names its fix: " + context);
    boolean packageCheck = oracle.kind().equals("runtime-error") && !oracle.error().startsWith("Multiple files");
    if (packageCheck) {
      assertTrue(report.findings().stream().anyMatch(f -> f.id().equals("DOCTOR-TE-PACKAGES")), context);
      return;
    }
    PythonEnvironment python = PythonEnvironment.ofFolders(List.of(env.sitePackages()));
    ImportReplay.Outcome outcome = ImportReplay.replay(python, Distributions.read(List.of(env.sitePackages())),
        env.variables()).outcome();
    assertEquals(oracle.stage() + " " + oracle.kind(), outcome.stage() + " " + outcome.kind(), context);
    assertEquals(Optional.ofNullable(oracle.missing()), outcome.missing(), context);
    if (!oracle.kind().equals("not-found")) {
      assertEquals(Optional.ofNullable(oracle.library()), outcome.library(), context);
      assertEquals(oracle.library(), report.loads().get(report.loads().size() - 1).file().getFileName().toString(),
          "the report's loads end with the one glibc refuses: " + context);
    }
  }
}
