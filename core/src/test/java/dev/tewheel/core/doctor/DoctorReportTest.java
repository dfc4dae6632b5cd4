package dev.tewheel.core.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Doctor's JSON report fits the schema te-wheel ships, docs/schema/doctor.schema.json, for every verdict. */
class DoctorReportTest {
  @TempDir static Path root;
  static DoctorEnvironments environments;

  @BeforeAll
  static void build() {
    environments = new DoctorEnvironments(root);
  }

  @ParameterizedTest
  @ValueSource(strings = {"healthy", "meta-only", "two-cuda-majors"})
  void theJsonReportFitsTheShippedSchema(String name) throws Exception {
    DoctorEnvironments.Environment env = environments.make(name);
    DoctorReport report = Doctor.examine(new DoctorRequest(Optional.empty(), List.of(env.sitePackages()),
        Map.of("CUDA_HOME", "/opt/cuda\u001b[31m")));
    Path schema = Path.of(System.getProperty("user.dir")).resolve("../docs/schema/doctor.schema.json").normalize();
    List<Error> errors = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
        .getSchema(Files.readString(schema), InputFormat.JSON).validate(report.json(), InputFormat.JSON);
    assertTrue(errors.isEmpty(), errors + "\n" + report.json());
    assertEquals(report.verdict().exitStatus() == 1, report.json().contains("\"verdict\": \"fails\""));
    assertTrue(report.json().contains("/opt/cuda\\u001b[31m"), "JSON escapes what it quotes");
  }
}
