package dev.tewheel.core.gate;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Validates a report against the JSON Schema te-wheel ships for its kind (docs/schema, packed into the plugin jar
 * under META-INF/te-wheel/schema), with a draft 2020-12 validator that is no part of te-wheel: a report the schema
 * does not describe fails the test that wrote it.
 */
public final class ReportSchemas {
  private ReportSchemas() {}

  /** The shipped schema's file: docs/schema beside the module the test runs in. */
  public static Path schemaFile(ReportKind kind) {
    return Path.of(System.getProperty("user.dir")).resolve("../docs/schema").resolve(kind.schemaFileName())
        .normalize();
  }

  /** The schema violations of {@code json}; none when it fits. */
  public static List<Error> violations(ReportKind kind, String json) {
    try {
      Schema schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
          .getSchema(Files.readString(schemaFile(kind)), InputFormat.JSON);
      return schema.validate(json, InputFormat.JSON);
    } catch (IOException e) {
      throw new UncheckedIOException("the shipped schema " + schemaFile(kind) + " cannot be read", e);
    }
  }

  public static void assertValid(ReportKind kind, String json) {
    List<Error> errors = violations(kind, json);
    assertTrue(errors.isEmpty(), "the " + kind.id() + " report does not fit " + schemaFile(kind) + ": " + errors
        + "\n" + json);
  }

  /** Validates the report.json in {@code folder}. */
  public static void assertValid(ReportKind kind, Path folder) throws IOException {
    assertValid(kind, Files.readString(folder.resolve(kind.jsonFileName())));
  }
}
