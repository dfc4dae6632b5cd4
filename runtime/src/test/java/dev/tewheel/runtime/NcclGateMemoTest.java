package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.report.Availability;
import dev.tewheel.runtime.report.NcclVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The NCCL gate remembers what a file reported, and only while it is the same file: an upgrade (or downgrade) moved
 * over the configured path is probed again. In a fresh JVM, since dlopen is process-wide.
 */
class NcclGateMemoTest {
  @TempDir Path temp;

  @Test
  void aFileMovedOverTheConfiguredPathIsProbedAgain() throws Exception {
    FreshJvm.run(getClass(), "probeReplaceProbe", temp);
  }

  static void probeReplaceProbe(Path temp) throws Exception {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    Path nccl = Files.copy(Bundles.NCCL, Files.createDirectories(temp.resolve("nccl")).resolve("libnccl.so.2"));
    TeRuntime runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(nccl).build();

    Availability first = runtime.availability();
    assertTrue(first.available(), first.reason());
    assertEquals(Optional.of(new NcclVersion(2, 30, 4)), first.nccl().version());
    Availability again = runtime.availability();
    assertEquals(first.nccl(), again.nccl(), "the same file reports the same version");
    assertFalse(Files.readString(Path.of("/proc/self/maps")).contains(nccl.toString()),
        "the gate leaves no libnccl.so.2 mapped");

    Files.move(Files.copy(Bundles.OLD_NCCL, temp.resolve("nccl/next")), nccl, StandardCopyOption.REPLACE_EXISTING);
    Availability downgraded = runtime.availability();
    assertEquals(Optional.of(new NcclVersion(2, 28, 9)), downgraded.nccl().version());
    assertFalse(downgraded.available());
    assertTrue(downgraded.reason().contains("2.28.9"), downgraded.reason());
  }
}
