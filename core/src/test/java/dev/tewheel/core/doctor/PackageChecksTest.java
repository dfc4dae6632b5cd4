package dev.tewheel.core.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** TE's package checks and the mixes pip allows, each named with its fix, on environments real pip made. */
class PackageChecksTest {
  @TempDir static Path root;
  static DoctorEnvironments environments;

  @BeforeAll
  static void build() {
    environments = new DoctorEnvironments(root);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "healthy|",
      "meta-only|ERROR DOCTOR-TE-PACKAGES pip install 'transformer-engine[core_cu13]==2.9.0'",
      "extension-version|ERROR DOCTOR-TE-PACKAGES pip install --no-build-isolation"
          + " 'transformer-engine[pytorch]==2.9.0'",
      "two-cuda-majors|WARNING DOCTOR-CUDA-MAJORS pip uninstall nvidia-nccl-cu12",
      "two-te-cores|WARNING DOCTOR-TE-CORES pip uninstall transformer_engine_cu12",
      "cu12-core-with-cu13-libs|WARNING DOCTOR-TE-VARIANT pip uninstall -y transformer_engine_cu12 && pip install"
          + " 'transformer-engine-cu13==2.9.0'"})
  void eachMixIsNamedWithItsFix(String name, String expected) throws Exception {
    DoctorEnvironments.Environment env = environments.make(name);
    List<String> found = PackageChecks.check(Distributions.read(List.of(env.sitePackages()))).stream()
        .map(f -> f.severity() + " " + f.id() + " " + f.fix().orElse("")).toList();
    assertEquals(expected == null ? List.of() : List.of(expected), found);
  }
}
