package dev.tewheel.bundle.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestTest {
  private static final String SHA = "a".repeat(64);

  @TempDir Path temp;

  private static Manifest sample() {
    return new Manifest("default", "nccl_ep", "nccl_ep/include", List.of(
        ManifestEntry.header("nccl_ep/include/nccl_ep.h", 10, SHA),
        new ManifestEntry("libnccl_ep.so", FileKind.NCCL_EP_LIBRARY, 2000, SHA, "libnccl_ep.so.0", 0, "0.1.0"),
        new ManifestEntry("libtransformer_engine.so", FileKind.TRANSFORMER_ENGINE_LIBRARY, 3000, SHA,
            "libtransformer_engine.so", null, null).withGpuCode(List.of("sm_80", "sm_90a"), List.of("compute_120"))));
  }

  @Test
  void gpuCodeIsWrittenAndReadAndOptional() {
    String json = sample().toJson();
    assertTrue(json.contains("\"gpuCode\": {\"sass\": [\"sm_80\", \"sm_90a\"], \"ptx\": [\"compute_120\"]}")
        || json.replaceAll("\\s", "").contains("\"gpuCode\":{\"sass\":[\"sm_80\",\"sm_90a\"],\"ptx\":[\"compute_120\"]}"),
        json);
    Manifest read = Manifest.parse(json, "test");
    assertEquals(List.of("sm_80", "sm_90a"), read.transformerEngineLibrary().orElseThrow().sass());
    assertEquals(null, read.ncclEpLibrary().orElseThrow().sass(), "an entry without gpuCode reads as not recorded");
  }

  /** 100,000 headers once made a 19.6 MB manifest that every reader then refused: the writer refuses it first. */
  @Test
  void aManifestItsReadersWouldRefuseIsNeverWritten() throws Exception {
    List<ManifestEntry> headers = new java.util.ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      headers.add(ManifestEntry.header("nccl_ep/include/nccl_ep/many/h" + i + ".h", 13, SHA));
    }
    Manifest large = new Manifest("default", "nccl_ep", "nccl_ep/include", headers);
    assertTrue(large.jsonBytes() > Manifest.MAX_BYTES, large.jsonBytes() + " bytes");
    Path file = temp.resolve("te-wheel-lib.json");
    ManifestException refused = assertThrows(ManifestException.class, () -> large.write(file));
    assertTrue(refused.getMessage().startsWith(file + " would be " + large.jsonBytes() + " bytes for 100000 files,"
        + " more than a manifest may be (at most 16777216 bytes"), refused.getMessage());
    assertTrue(Files.notExists(file), "nothing is written");
    sample().write(file);
    assertEquals(sample(), Manifest.read(file), "a manifest within the bound is written as before");
  }

  @Test
  void roundTripsThroughAFileWrittenAtomically() throws Exception {
    Path file = temp.resolve("te-wheel-lib.json");
    Files.writeString(file, "old");
    sample().write(file);
    Manifest read = Manifest.read(file);
    assertEquals(sample(), read);
    assertEquals("libnccl_ep.so.0", read.ncclEpLibrary().orElseThrow().soname());
    assertEquals(0, read.ncclEpLibrary().orElseThrow().major());
    assertEquals(1, read.headers().size());
    try (var listing = Files.list(temp)) {
      assertEquals(List.of(file), listing.toList(), "no temporary file is left beside the manifest");
    }
  }

  @Test
  void sortsFilesSoEqualManifestsAreEqualBytes() {
    String json = sample().toJson();
    assertTrue(json.indexOf("libnccl_ep.so\"") < json.indexOf("libtransformer_engine.so\"")
        && json.indexOf("libtransformer_engine.so\"") < json.indexOf("nccl_ep/include/nccl_ep.h"), json);
    assertTrue(json.startsWith("{\n  \"schema\": \"te-wheel-lib/1\",\n  \"layout\": \"default\""), json);
  }

  @Test
  void aForeignOrBrokenManifestIsReportedWithItsSource() {
    String wrongSchema = sample().toJson().replace("te-wheel-lib/1", "te-wheel-lib/9");
    ManifestException e = assertThrows(ManifestException.class, () -> Manifest.parse(wrongSchema, "/x/m.json"));
    assertTrue(e.getMessage().startsWith("/x/m.json is not a valid te-wheel-lib/1 manifest: schema is"),
        e.getMessage());
    String badSha = sample().toJson().replaceFirst(SHA, "xyz");
    assertTrue(assertThrows(ManifestException.class, () -> Manifest.parse(badSha, "m.json")).getMessage()
        .contains("sha256 of"));
    assertThrows(ManifestException.class, () -> Manifest.parse("{\"schema\":\"te-wheel-lib/1\"", "m.json"));
  }
}
