package dev.tewheel.runtime.internal.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.runtime.Bundles;
import dev.tewheel.runtime.OtherUsers;
import dev.tewheel.runtime.internal.ffm.Libc;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another user who can write to a folder on the way to the class-path cache swaps it, as fast as renameat2 allows,
 * against a look-alike holding a foreign libnccl_ep.so, while te-runtime extracts and the caller loads. The old
 * cache trusted a complete bundle folder by name and never looked above the cache folder; that loaded the foreign
 * library in 4 of 40 runs. Each round here plays extract-then-dlopen as the runtime does; the foreign library's
 * constructor would write a marker.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CacheSwapRaceTest {
  private static final String FOLDER = Layout.RESOURCE_FOLDER;
  /** Rounds per attack; the old code loaded the foreign library within the first few dozen. */
  private static final int ROUNDS = 300;

  @TempDir Path temp;

  @Test
  void swappingTheFolderAboveTheCacheNeverLoadsAForeignLibrary() throws Throwable {
    Path marker = temp.resolve("marker");
    Path root = bundleOnClassPath(marker);
    Path shared = Files.createDirectories(temp.resolve("shared"));
    try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, null)) {
      Path genuine = ClasspathBundleTest.extract(loader, FOLDER, shared.resolve("cache")).orElseThrow().folder();
      // The look-alike: the same bundle folder, another library in it.
      Path evil = shared.resolve("evil");
      Bundles.copyTree(shared.resolve("cache"), evil);
      plantForeignLibrary(evil.resolve(genuine.getFileName().toString()).resolve("libnccl_ep.so"), marker);
      String refusal = OtherUsers.handOverAbove(shared);
      OtherUsers.handOver(evil);
      race(loader, shared, base -> new Path[] {base.resolve("cache"), base.resolve("cache"), base.resolve("evil")},
          marker, refusal);
    }
  }

  @Test
  void swappingTheLibraryInsideACompleteBundleFolderNeverLoadsAForeignLibrary() throws Throwable {
    Path marker = temp.resolve("marker");
    Path root = bundleOnClassPath(marker);
    Path cache = temp.resolve("cache");
    try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, null)) {
      Path genuine = ClasspathBundleTest.extract(loader, FOLDER, cache).orElseThrow().folder();
      // The complete bundle folder is another user's (made before, or handed over): the old fast path trusted it.
      plantForeignLibrary(genuine.resolve(".swap"), marker);
      String refusal = OtherUsers.handOver(genuine);
      String hash = genuine.getFileName().toString();
      race(loader, cache, base -> new Path[] {base, base.resolve(hash).resolve("libnccl_ep.so"),
          base.resolve(hash).resolve(".swap")}, marker, refusal);
    }
  }

  /**
   * Round after round, extract and dlopen while a thread exchanges two names. Each round first renames
   * {@code base}, so that the library's path is new to the dynamic linker, which would otherwise hand back the
   * library it loaded under that name before without opening the file again.
   *
   * @param paths for a round's base folder: the cache folder to extract into, and the two names to exchange
   */
  private static void race(URLClassLoader loader, Path base, Function<Path, Path[]> paths, Path marker,
      String refusal) throws Throwable {
    List<String> refusals = new ArrayList<>();
    int loads = 0;
    Path current = base;
    for (int round = 0; round < ROUNDS && !ran(marker).contains("foreign"); round++) {
      Path next = base.resolveSibling(base.getFileName() + "-" + round);
      Files.move(current, next);
      current = next;
      Path[] in = paths.apply(current);
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<Throwable> swapFailed = new AtomicReference<>();
      Thread swapper = new Thread(() -> {
        try {
          while (!stop.get()) {
            OtherUsers.exchange(in[1], in[2]);
          }
        } catch (Throwable t) {
          swapFailed.set(t);
        }
      }, "hostile swapper");
      swapper.start();
      try {
        Path folder = ClasspathBundleTest.extract(loader, FOLDER, in[0]).orElseThrow().folder();
        if (Libc.dlopen(folder.resolve("libnccl_ep.so").toString(), Libc.RTLD_NOW).ok()) {
          loads++;
        }
      } catch (BundleProblem e) {
        refusals.add(e.getMessage());
      } finally {
        stop.set(true);
        swapper.join();
      }
      assertEquals(null, swapFailed.get(), "the swapper kept swapping");
    }
    assertFalse(ran(marker).contains("foreign"), "a foreign library's constructor ran (" + loads + " loads, "
        + refusals.size() + " refusals before it)");
    assertEquals(ROUNDS, refusals.size(), "every round is refused, the swap never decides: " + refusals.stream()
        .distinct().limit(3).toList());
    assertTrue(refusals.stream().allMatch(r -> r.contains(refusal)), refusals.stream().distinct().limit(3).toList()
        + " should say " + refusal);
  }

  private static String ran(Path marker) throws java.io.IOException {
    return Files.exists(marker) ? Files.readString(marker) : "";
  }

  /** A class path bundle whose libnccl_ep.so is a gcc-built library that writes "genuine" to the marker. */
  private Path bundleOnClassPath(Path marker) throws Exception {
    Path root = temp.resolve("cp");
    Path wheelLib = Bundles.defaultLayout(root.resolve(FOLDER));
    Files.delete(wheelLib.resolve("libnccl_ep.so"));
    OtherUsers.markerLibrary(wheelLib.resolve("libnccl_ep.so"), "genuine", marker);
    Files.delete(wheelLib.resolve("libnccl_ep.so.c"));
    Bundles.writeManifest(wheelLib, "default");
    return root;
  }

  private Path plantForeignLibrary(Path file, Path marker) throws Exception {
    Files.deleteIfExists(file);
    OtherUsers.markerLibrary(file, "foreign", marker);
    Files.delete(file.resolveSibling(file.getFileName() + ".c"));
    return file;
  }
}
