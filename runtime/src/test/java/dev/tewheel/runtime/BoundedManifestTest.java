package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.io.Sha256;
import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.bundle.manifest.ManifestEntry;
import dev.tewheel.runtime.cli.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * te-runtime on the bundles of issue 31's largest inputs, in a JVM with a 256 MiB heap: the wheel_lib an older
 * assemble wrote for 100,000 headers (a 19.6 MB manifest) is refused by name, and the largest one assemble writes
 * now (a manifest just under 16 MiB, files just under the entry bound) is read and checked within the heap.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class BoundedManifestTest {
  private static final List<String> JVM = List.of("--enable-native-access=ALL-UNNAMED", "-Xmx256m",
      "-XX:+ExitOnOutOfMemoryError");

  @TempDir Path temp;

  /** The stand-in bundle plus {@code count} headers (hard links to one file), its manifest listing them all. */
  private Path bundleWithHeaders(int count, int nameLength) throws Exception {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    Manifest small = Bundles.writeManifest(wheelLib, "default");
    Path many = Files.createDirectories(wheelLib.resolve("nccl_ep/include/nccl_ep/many"));
    Path original = Files.writeString(temp.resolve("original.h"), "#pragma once\n");
    String sha256 = Sha256.hex(Sha256.of(original));
    List<ManifestEntry> entries = new ArrayList<>(small.files());
    Path file = null;
    for (int i = 0; i < count; i++) {
      if (i % 30_000 == 0) {
        file = Files.copy(original, temp.resolve("original-" + i + ".h"));
      }
      String name = "h" + i + "_";
      name += "x".repeat(Math.max(0, nameLength - name.length() - 2)) + ".h";
      Files.createLink(many.resolve(name), file);
      entries.add(ManifestEntry.header("nccl_ep/include/nccl_ep/many/" + name, 13, sha256));
    }
    Manifest manifest = new Manifest(small.layout(), small.ncclEpHome(), small.includeRoot(), entries);
    // Written by hand, as an older assemble did: Manifest.write now refuses a manifest over the bound.
    Files.writeString(wheelLib.resolve(Layout.MANIFEST), manifest.toJson());
    return wheelLib;
  }

  private ChildJvm.Result report(Path wheelLib) throws Exception {
    return ChildJvm.run(ChildJvm.command(JVM, null, Main.class, List.of("--wheel-lib", wheelLib.toString(),
        "--nccl-library", Bundles.NCCL.toString())), Map.of(), temp.resolve("logs"));
  }

  @Test
  void theManifestAnOlderAssembleWroteForAHundredThousandHeadersIsRefusedByName() throws Exception {
    Path wheelLib = bundleWithHeaders(100_000, 12);
    long bytes = Files.size(wheelLib.resolve(Layout.MANIFEST));
    assertTrue(bytes > Manifest.MAX_BYTES, bytes + " bytes");
    ChildJvm.Result result = report(wheelLib);
    assertEquals(1, result.exit(), result.toString()); // NCCL EP not available (te-wheel exit codes: 2 is usage)
    assertTrue(result.out().contains(wheelLib.resolve(Layout.MANIFEST) + " is " + bytes + " bytes, larger than a"
        + " manifest may be"), result.toString());
  }

  @Test
  void theLargestBundleAssembleWritesIsCheckedWithinTheHeap() throws Exception {
    Path wheelLib = bundleWithHeaders(49_900, 150);
    long bytes = Files.size(wheelLib.resolve(Layout.MANIFEST));
    assertTrue(bytes > Manifest.MAX_BYTES * 3L / 4 && bytes <= Manifest.MAX_BYTES, bytes + " bytes");
    ChildJvm.Result result = report(wheelLib);
    assertEquals(0, result.exit(), result.toString());
    assertTrue(result.out().contains("Available: yes"), result.toString());
  }
}
