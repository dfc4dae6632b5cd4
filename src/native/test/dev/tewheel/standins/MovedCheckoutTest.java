package dev.tewheel.standins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A checkout that moves keeps its build output's timestamps, so make would call the stand-ins up to date while
 * their config.h still names the old place: the Makefile must start afresh when its folder or OUT changed.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MovedCheckoutTest {
  /** What the Makefile reads when it builds NCCL EP's header tree (the rest of src/native is not needed). */
  private static final List<String> SOURCES = List.of("Makefile", "include", "nccl-include", "sysinclude",
      "te-include", "testdata");

  @TempDir Path temp;

  @Test
  void aMovedCheckoutRebuildsConfigHWithTheNewPaths() throws Exception {
    Path before = temp.resolve("before/native");
    copy(Path.of("").toAbsolutePath(), before);
    Path configBefore = headerTree(before);
    assertTrue(Files.readString(configBefore).contains(before + "/target/stand-ins/nccl_ep/include/nccl_ep"),
        Files.readString(configBefore));

    Path after = temp.resolve("after");
    Files.move(temp.resolve("before"), after); // as mv does: the same files with the same timestamps
    Path moved = after.resolve("native");
    String config = Files.readString(headerTree(moved));
    assertFalse(config.contains(before.toString()), "config.h still names the old checkout:\n" + config);
    assertTrue(config.contains(moved + "/target/stand-ins/nccl_ep/include/nccl_ep"), config);
  }

  /** Runs make for NCCL EP's header tree in {@code native} (OUT=target/stand-ins) and returns its config.h. */
  private static Path headerTree(Path nativeFolder) throws Exception {
    Path out = nativeFolder.resolve("target/stand-ins");
    Process make = new ProcessBuilder("make", "--no-print-directory", "-s", "-C", nativeFolder.toString(),
        "OUT=" + out, out.resolve(".stamps/ep-include").toString()).redirectErrorStream(true).start();
    String output = new String(make.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(make.waitFor(120, TimeUnit.SECONDS), "make did not finish");
    assertEquals(0, make.exitValue(), "make failed:\n" + output);
    return out.resolve("nccl_ep/include/nccl_ep/config.h");
  }

  private static void copy(Path from, Path to) throws IOException {
    for (String name : SOURCES) {
      Path source = from.resolve(name);
      try (Stream<Path> walk = Files.walk(source)) {
        for (Path path : (Iterable<Path>) walk::iterator) {
          Path target = to.resolve(from.relativize(path).toString());
          if (Files.isDirectory(path)) {
            Files.createDirectories(target);
          } else {
            Files.createDirectories(target.getParent());
            Files.copy(path, target, StandardCopyOption.COPY_ATTRIBUTES);
          }
        }
      }
    }
  }
}
