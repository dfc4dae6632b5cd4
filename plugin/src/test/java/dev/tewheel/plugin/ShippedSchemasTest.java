package dev.tewheel.plugin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.tewheel.core.gate.ReportKind;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The plugin jar carries each report kind's JSON Schema, byte for byte the one docs/schema publishes. */
class ShippedSchemasTest {
  @Test
  void everyReportKindHasItsSchemaInThePluginJar() throws Exception {
    for (ReportKind kind : ReportKind.values()) {
      try (InputStream in = getClass().getClassLoader().getResourceAsStream(kind.schemaResource())) {
        assertNotNull(in, kind.schemaResource() + " is not on the plugin's class path");
        Path docs = Path.of(System.getProperty("user.dir")).resolve("../docs/schema").resolve(kind.schemaFileName());
        assertArrayEquals(Files.readAllBytes(docs), in.readAllBytes(), kind.schemaResource() + " differs from " + docs);
      }
    }
  }
}
