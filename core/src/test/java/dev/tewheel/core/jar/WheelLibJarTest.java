package dev.tewheel.core.jar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class WheelLibJarTest {
  private static final FileTime TIME = FileTime.from(Instant.parse("2026-01-01T00:00:00Z"));

  @TempDir Path temp;

  private Path wheelLib(String name) throws Exception {
    Path folder = temp.resolve(name).resolve("wheel_lib");
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(), folder)
        .withTimestamp(TIME).withStateFile(temp.resolve(name + "-state.json")));
    return folder;
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void aManifestPathLeavingTheBundleIsRefusedNotPacked() throws Exception {
    Path wheelLib = wheelLib("a");
    Files.writeString(temp.resolve("a/secret.txt"), "not for the jar");
    Path manifest = wheelLib.resolve("te-wheel-lib.json");
    String json = Files.readString(manifest);
    // A header entry that points one folder up, at a file of the right size and sha256 (so only the path is wrong).
    String entry = "{\"path\": \"../secret.txt\", \"kind\": \"header\", \"size\": 15, \"sha256\": \""
        + dev.tewheel.bundle.io.Sha256.hex(dev.tewheel.bundle.io.Sha256.of(temp.resolve("a/secret.txt"))) + "\"}, ";
    Files.writeString(manifest, json.replaceFirst("\"files\": \\[\\s*", "\"files\": [" + entry));
    Path target = temp.resolve("out/natives.jar");
    IOException refused = assertThrows(IOException.class, () -> WheelLibJar.write(
        new WheelLibJar.Request(wheelLib, WheelLibJar.DEFAULT_RESOURCE_FOLDER, target, TIME)));
    assertTrue(refused.getMessage().contains("'path' '../secret.txt' is not a path inside wheel_lib (it has a '..'"
        + " segment)"), refused.getMessage());
    assertFalse(Files.exists(target), "no jar is written");
  }

  @Test
  void theJarHoldsTheManifestAndItsFilesUnderTheResourceFolderInOrder() throws Exception {
    Path wheelLib = wheelLib("a");
    WheelLibJar.Written written = WheelLibJar.write(new WheelLibJar.Request(wheelLib,
        WheelLibJar.DEFAULT_RESOURCE_FOLDER, temp.resolve("out/natives-linux-x86_64-cu12.jar"), TIME));
    assertEquals("x86_64", written.arch().orElseThrow());
    try (JarFile jar = new JarFile(written.jar().toFile())) {
      List<String> names = jar.stream().map(ZipEntry::getName).toList();
      assertEquals(List.of("META-INF/", "META-INF/MANIFEST.MF", "META-INF/te-wheel/", "META-INF/te-wheel/wheel_lib/"),
          names.subList(0, 4));
      assertTrue(names.contains("META-INF/te-wheel/wheel_lib/te-wheel-lib.json"), names.toString());
      assertTrue(names.contains("META-INF/te-wheel/wheel_lib/libtransformer_engine.so"), names.toString());
      assertTrue(names.contains("META-INF/te-wheel/wheel_lib/nccl_ep/include/nccl_ep/device/"), names.toString());
      assertEquals(written.files(), names.stream().filter(n -> !n.endsWith("/")).count() - 1);
      assertEquals("META-INF/te-wheel/wheel_lib", jar.getManifest().getMainAttributes().getValue("TE-Wheel-Lib"));
      assertEquals(null, jar.getManifest().getMainAttributes().getValue(WheelLibJar.CUDA_MAJOR_ATTRIBUTE),
          "no CUDA variant was given, so none is recorded");
      assertEquals(Files.size(wheelLib.resolve("libnccl_ep.so")),
          jar.getEntry("META-INF/te-wheel/wheel_lib/libnccl_ep.so").getSize());
    }
    assertFalse(Files.exists(temp.resolve("out/natives-linux-x86_64-cu12.jar.part")));
  }

  @Test
  void twoBuildsGiveTheSameBytes() throws Exception {
    Path one = WheelLibJar.write(new WheelLibJar.Request(wheelLib("a"), "META-INF/te-wheel/wheel_lib/",
        temp.resolve("one.jar"), TIME)).jar();
    Path two = WheelLibJar.write(new WheelLibJar.Request(wheelLib("b"), "/META-INF/te-wheel/wheel_lib",
        temp.resolve("two.jar"), TIME)).jar();
    assertArrayEquals(Files.readAllBytes(one), Files.readAllBytes(two));
  }

  @Test
  void theClassifierNamesTheLibrariesMachineAndTheCudaMajor() throws Exception {
    Path wheelLib = wheelLib("a");
    assertEquals("linux-x86_64-cu12", WheelLibJar.classifier(wheelLib, 12));
    assertEquals("linux-x86_64", WheelLibJar.classifier(wheelLib, null));
    assertEquals("linux-x86_64-cu13", WheelLibJar.classifier("linux-x86_64-cu13", wheelLib, 12));
    assertEquals("linux-x86_64-cu12", WheelLibJar.classifier(" ", wheelLib, 12));
    IllegalArgumentException bad = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> WheelLibJar.classifier("linux x86", wheelLib, 12));
    assertEquals("'linux x86' is not a Maven classifier (letters, digits, '.', '_', '-', starting with a letter or"
        + " digit)", bad.getMessage());
  }

  @Test
  void aJarClassifiedCu12IsRefusedForATeNeedingLibcudartSo13AndWrittenAsCu13() throws Exception {
    Path te = dev.tewheel.core.check.CudaStandIns.transformerEngineOnCudart13(temp.resolve("cuda13-te"));
    Path wheelLib = temp.resolve("cuda13/wheel_lib");
    new Assembler(line -> {}).assemble(AssembleRequest.of(te, StandIns.ncclEpHome(), wheelLib).withTimestamp(TIME)
        .withStateFile(temp.resolve("cuda13-state.json")));
    String cu12 = WheelLibJar.classifier(wheelLib, 12);
    assertEquals(12, WheelLibJar.cudaMajorOf(cu12));
    Path target12 = temp.resolve("te-natives-" + cu12 + ".jar");
    IOException refused = assertThrows(IOException.class, () -> WheelLibJar.write(new WheelLibJar.Request(wheelLib,
        WheelLibJar.DEFAULT_RESOURCE_FOLDER, target12, TIME, WheelLibJar.cudaMajorOf(cu12))));
    assertEquals("the wheel_lib " + wheelLib + " does not fit the jar's CUDA variant cu12: [ERROR CUDA-VARIANT] "
        + wheelLib.resolve("libtransformer_engine.so") + ": found DT_NEEDED libcudart.so.13; expected libcudart.so.12"
        + " for a cu12 wheel. Fix: build libtransformer_engine.so against CUDA 12, or pack it as cu13:"
        + " -Dte.cudaMajor=13", refused.getMessage());
    assertFalse(Files.exists(target12), "nothing is written");

    String cu13 = WheelLibJar.classifier("linux-x86_64-cu13", wheelLib, null);
    Path target13 = temp.resolve("te-natives-" + cu13 + ".jar");
    assertEquals(target13, WheelLibJar.write(new WheelLibJar.Request(wheelLib, WheelLibJar.DEFAULT_RESOURCE_FOLDER,
        target13, TIME, WheelLibJar.cudaMajorOf(cu13))).jar());
    try (JarFile jar = new JarFile(target13.toFile())) {
      assertEquals("13", jar.getManifest().getMainAttributes().getValue("TE-Wheel-Lib-CUDA-Major"));
    }
    assertEquals(null, WheelLibJar.cudaMajorOf("linux-x86_64"));
  }

  @Test
  void aWheelLibWithoutManifestOrOutOfStepWithItIsRefused() throws Exception {
    Path bare = Files.createDirectories(temp.resolve("bare"));
    IOException none = assertThrows(IOException.class, () -> WheelLibJar.write(new WheelLibJar.Request(bare,
        WheelLibJar.DEFAULT_RESOURCE_FOLDER, temp.resolve("x.jar"), TIME)));
    assertTrue(none.getMessage().contains("no te-wheel-lib.json in " + bare), none.getMessage());
    assertTrue(none.getMessage().contains("Run te:assemble-wheel-lib first"), none.getMessage());

    Path wheelLib = wheelLib("a");
    Files.writeString(wheelLib.resolve("libnccl_ep.so"), "truncated");
    IOException changed = assertThrows(IOException.class, () -> WheelLibJar.write(new WheelLibJar.Request(wheelLib,
        WheelLibJar.DEFAULT_RESOURCE_FOLDER, temp.resolve("x.jar"), TIME)));
    assertTrue(changed.getMessage().contains("libnccl_ep.so is 9 bytes, the manifest says"), changed.getMessage());
    assertFalse(Files.exists(temp.resolve("x.jar")));
    assertThrows(IllegalArgumentException.class, () -> new WheelLibJar.Request(wheelLib, "../up", temp, TIME));
  }

  private WheelLibJar.Request request(Path wheelLib, String jar) {
    return new WheelLibJar.Request(wheelLib, WheelLibJar.DEFAULT_RESOURCE_FOLDER, temp.resolve(jar), TIME);
  }

  /** A file outside wheel_lib of the same size as {@code file}, holding other bytes. */
  private Path outsideTwin(Path file, String name) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    java.util.Arrays.fill(bytes, (byte) 'X');
    return Files.write(temp.resolve(name), bytes);
  }

  /** Once: a link of the manifest's size to a file outside passed the size check and its bytes went into the jar. */
  @Test
  void aFileLinkingOutOfWheelLibIsRefusedNotPacked() throws Exception {
    Path wheelLib = wheelLib("a");
    Path header = wheelLib.resolve("nccl_ep/include/nccl_ep.h");
    Path outside = outsideTwin(header, "outside.h");
    Files.delete(header);
    Files.createSymbolicLink(header, outside);
    IOException refused = assertThrows(IOException.class, () -> WheelLibJar.write(request(wheelLib, "x.jar")));
    assertTrue(refused.getMessage().contains(header + " is a symbolic link, not a regular file inside " + wheelLib),
        refused.getMessage());
    assertFalse(Files.exists(temp.resolve("x.jar")), "no jar is written");
  }

  @Test
  void aFolderLinkingOutOfWheelLibIsNotFollowed() throws Exception {
    Path wheelLib = wheelLib("a");
    Path folder = wheelLib.resolve("nccl_ep/include/nccl_ep");
    Path outside = temp.resolve("outside-folder");
    Files.move(folder, outside);
    Files.createSymbolicLink(folder, outside); // the same bytes, but outside: still never read
    IOException refused = assertThrows(IOException.class, () -> WheelLibJar.write(request(wheelLib, "x.jar")));
    assertTrue(refused.getMessage().contains("lies under nccl_ep, which is missing or no folder inside " + wheelLib),
        refused.getMessage());
    assertFalse(Files.exists(temp.resolve("x.jar")));
  }

  @Test
  void otherBytesOfTheListedSizeAreRefusedByTheirDigest() throws Exception {
    Path wheelLib = wheelLib("a");
    Path header = wheelLib.resolve("nccl_ep/include/nccl_ep.h");
    Files.write(header, Files.readAllBytes(outsideTwin(header, "twin.h")));
    IOException refused = assertThrows(IOException.class, () -> WheelLibJar.write(request(wheelLib, "x.jar")));
    assertTrue(refused.getMessage().contains(header + " holds " + Files.size(header) + " bytes of sha256 "),
        refused.getMessage());
    assertTrue(refused.getMessage().contains("its manifest lists"), refused.getMessage());
    assertFalse(Files.exists(temp.resolve("x.jar")));
  }

  /**
   * A header swapped again and again between itself and a link to other bytes of its size outside wheel_lib, while
   * jars are written: each write packs the header's own bytes or is refused, never the outside bytes.
   */
  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void aLinkSwappedInWhilePackingNeverPutsOutsideBytesInTheJar() throws Exception {
    Path wheelLib = wheelLib("a");
    Path header = wheelLib.resolve("nccl_ep/include/nccl_ep.h");
    byte[] own = Files.readAllBytes(header);
    Path outside = outsideTwin(header, "outside.h");
    Path link = wheelLib.resolve("nccl_ep/include/.link");
    Path copy = wheelLib.resolve("nccl_ep/include/.copy");
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    Thread swapper = new Thread(() -> {
      try {
        while (!stop.get()) {
          Files.createSymbolicLink(link, outside);
          Files.move(link, header, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
          Files.write(copy, own);
          Files.move(copy, header, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    swapper.start();
    int written = 0;
    int refused = 0;
    try {
      for (int i = 0; i < 200; i++) {
        Path jar = temp.resolve("out/" + i + ".jar");
        try {
          WheelLibJar.write(request(wheelLib, "out/" + i + ".jar"));
        } catch (IOException e) {
          refused++;
          assertFalse(Files.exists(jar), "a refused write leaves no jar");
          continue;
        }
        written++;
        try (JarFile file = new JarFile(jar.toFile())) {
          assertArrayEquals(own, file.getInputStream(file.getEntry(WheelLibJar.DEFAULT_RESOURCE_FOLDER
              + "/nccl_ep/include/nccl_ep.h")).readAllBytes(), "write " + i + " packed the header's own bytes");
        }
      }
    } finally {
      stop.set(true);
      swapper.join();
    }
    assertEquals(200, written + refused);
    assertTrue(refused > 0, "the swap was seen: " + written + " written, " + refused + " refused");
  }
}
