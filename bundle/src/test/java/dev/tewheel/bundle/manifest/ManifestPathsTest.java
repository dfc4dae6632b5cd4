package dev.tewheel.bundle.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.json.Json;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The manifest reader confines every path to the bundle and reads a bounded number of bytes, so verify, the runtime
 * and te:jar-wheel-lib, which all read manifests with it, never follow a manifest out of wheel_lib nor run out of
 * memory on one.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ManifestPathsTest {
  private static final String SHA = "a".repeat(64);

  @TempDir Path temp;

  /** A manifest's JSON as a hostile or broken tool might write it: the given homes and one header at {@code path}. */
  private static String json(String ncclEpHome, String includeRoot, String path) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("schema", Manifest.SCHEMA);
    root.put("layout", "default");
    root.put("ncclEpHome", ncclEpHome);
    root.put("includeRoot", includeRoot);
    List<Object> files = new ArrayList<>();
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("path", path);
    entry.put("kind", "header");
    entry.put("size", 1L);
    entry.put("sha256", SHA);
    files.add(entry);
    root.put("files", files);
    return Json.write(root);
  }

  @Test
  void ncclEpHomeOrIncludeRootOutsideTheBundleIsRefusedWhenRead() {
    for (String outside : List.of("../../elsewhere", "/opt/elsewhere", "nccl_ep/../../x", "a\0b", "a\nb", "a\\b",
        "./nccl_ep", "nccl_ep//include", "nccl_ep/")) {
      ManifestException home = assertThrows(ManifestException.class,
          () -> Manifest.parse(json(outside, "nccl_ep/include", "nccl_ep/include/nccl_ep.h"), "m.json"), outside);
      assertTrue(home.getMessage().startsWith("m.json is not a valid te-wheel-lib/1 manifest: 'ncclEpHome' "),
          home.getMessage());
      assertTrue(home.getMessage().contains("is not a path inside wheel_lib"), home.getMessage());
      ManifestException root = assertThrows(ManifestException.class,
          () -> Manifest.parse(json("nccl_ep", outside, "nccl_ep/include/nccl_ep.h"), "m.json"), outside);
      assertTrue(root.getMessage().contains("'includeRoot' "), root.getMessage());
    }
    // "" names wheel_lib itself, a home the ep layouts use; an include root must be a folder inside it.
    assertEquals("", Manifest.parse(json("", "include", "include/nccl_ep.h"), "m.json").ncclEpHome());
    assertThrows(ManifestException.class, () -> Manifest.parse(json("", "", "include/nccl_ep.h"), "m.json"));
  }

  @Test
  void aFilePathThatLeavesTheBundleIsRefusedWhenRead() {
    for (String outside : List.of("../secret.txt", "/etc/passwd", "nccl_ep/../../secret.txt", "", "lib\0.so")) {
      ManifestException e = assertThrows(ManifestException.class,
          () -> Manifest.parse(json("nccl_ep", "nccl_ep/include", outside), "m.json"), outside);
      assertTrue(e.getMessage().contains("'path' "), e.getMessage());
      assertTrue(e.getMessage().contains("Rebuild wheel_lib with te:assemble-wheel-lib"), e.getMessage());
    }
  }

  @Test
  void aNulInAManifestPathIsATypedErrorThatShowsTheCharacter() {
    ManifestException e = assertThrows(ManifestException.class,
        () -> Manifest.parse(json("nccl_ep", "nccl_ep/include", "libnccl_ep.so\0txt"), "m.json"));
    assertTrue(e.getMessage().contains("'libnccl_ep.so\\u0000txt'"), e.getMessage());
    assertTrue(e.getMessage().contains("control character U+0000"), e.getMessage());
    assertTrue(!e.getMessage().contains("\0"), "the message never carries the raw character");
  }

  @Test
  void aManifestLargerThanTheBoundIsRefusedWithoutReadingIt() throws Exception {
    Path file = temp.resolve("te-wheel-lib.json");
    try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
      sparse.setLength(3L << 30); // 3 GiB, sparse: no disk used
    }
    ManifestException e = assertThrows(ManifestException.class, () -> Manifest.read(file));
    assertTrue(e.getMessage().startsWith(file + " is 3221225472 bytes, larger than a manifest may be (at most "
        + Manifest.MAX_BYTES + " bytes; "), e.getMessage());
  }

  @Test
  void aManifestStreamLongerThanTheBoundIsRefused() {
    byte[] big = new byte[Manifest.MAX_BYTES + 1];
    ManifestException e = assertThrows(ManifestException.class,
        () -> Manifest.read(new java.io.ByteArrayInputStream(big), "jar!/te-wheel-lib.json"));
    assertTrue(e.getMessage().startsWith("jar!/te-wheel-lib.json is larger than a manifest may be (at most "
        + Manifest.MAX_BYTES + " bytes; "), e.getMessage());
  }

  @Test
  void aManifestThatIsAFifoIsRefusedWithoutOpeningIt() throws Exception {
    Path fifo = temp.resolve("te-wheel-lib.json");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
    assertEquals(0, mkfifo.waitFor(), "mkfifo (coreutils) is needed to make the FIFO");
    java.io.IOException e = assertThrows(java.io.IOException.class, () -> Manifest.read(fifo));
    assertTrue(e.getMessage().contains("is a FIFO, not a regular file"), e.getMessage());
  }
}
