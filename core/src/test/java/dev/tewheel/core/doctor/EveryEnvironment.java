package dev.tewheel.core.doctor;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a test run once in each environment of {@link DoctorEnvironments} starts from: the environments, built in a
 * temporary folder of the test class's own (one instance per class, so classes share no state), and their names
 * for {@code @MethodSource("names")}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class EveryEnvironment {
  DoctorEnvironments environments;

  @BeforeAll
  void build(@TempDir Path root) {
    environments = new DoctorEnvironments(root);
  }

  Stream<String> names() {
    return DoctorEnvironments.NAMES.stream();
  }
}
