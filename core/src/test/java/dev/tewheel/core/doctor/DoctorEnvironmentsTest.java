package dev.tewheel.core.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The environments are what they claim: in each, TE's loads performed by Python's ctypes with the real glibc end as
 * the environment says (the healthy one imports; each other fails at its stage with its missing library or symbol).
 */
class DoctorEnvironmentsTest {
  @TempDir static Path root;
  static DoctorEnvironments environments;

  @BeforeAll
  static void build() {
    environments = new DoctorEnvironments(root);
  }

  static Stream<String> names() {
    return DoctorEnvironments.NAMES.stream();
  }

  @ParameterizedTest
  @MethodSource("names")
  void tesImportEndsAsTheEnvironmentSays(String name) throws Exception {
    DoctorEnvironments.Environment env = environments.make(name);
    TeImportOracle oracle = TeImportOracle.run(env);
    assertEquals(env.expect(), oracle.outcome(), name + ": " + oracle);
  }
}
