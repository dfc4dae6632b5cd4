package dev.tewheel.core.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The environments are what they claim: in each, TE's loads performed by Python's ctypes with the real glibc end as
 * the environment says (the healthy one imports; each other fails at its stage with its missing library or symbol).
 */
class DoctorEnvironmentsTest extends EveryEnvironment {
  @ParameterizedTest
  @MethodSource("names")
  void tesImportEndsAsTheEnvironmentSays(String name) throws Exception {
    DoctorEnvironments.Environment env = environments.make(name);
    TeImportOracle oracle = TeImportOracle.run(env);
    assertEquals(env.expect(), oracle.outcome(), name + ": " + oracle);
  }
}
