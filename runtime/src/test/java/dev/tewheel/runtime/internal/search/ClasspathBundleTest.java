package dev.tewheel.runtime.internal.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.classpath.FoundBundle;
import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.bundle.manifest.ManifestEntry;
import dev.tewheel.runtime.Bundles;
import dev.tewheel.runtime.ChildJvm;
import dev.tewheel.runtime.FreshJvm;
import dev.tewheel.runtime.OtherUsers;
import dev.tewheel.runtime.TeRuntime;
import dev.tewheel.runtime.error.LoadException;
import dev.tewheel.runtime.internal.search.ClasspathBundle.Extracted;
import dev.tewheel.runtime.report.Availability;
import java.io.RandomAccessFile;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A wheel_lib packaged on the class path is extracted once per content, safely under concurrency and tampering. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClasspathBundleTest {
  private static final String FOLDER = Layout.RESOURCE_FOLDER;

  @TempDir Path temp;

  /** A class path root holding a wheel_lib under META-INF/te-wheel/wheel_lib, NCCL EP grown by {@code growMb}. */
  static Path classPathRoot(Path temp, int growMb) throws Exception {
    Path root = temp.resolve("cp");
    Path wheelLib = Bundles.defaultLayout(root.resolve(FOLDER));
    try (RandomAccessFile file = new RandomAccessFile(wheelLib.resolve("libnccl_ep.so").toFile(), "rw")) {
      file.setLength(file.length() + ((long) growMb << 20));
    }
    Bundles.writeManifest(wheelLib, "default");
    return root;
  }

  /** The first bundle under {@code folder} extracted, as te-runtime's search does with one bundle there. */
  static Optional<Extracted> extract(ClassLoader loader, String folder, Path cache) throws BundleProblem {
    List<FoundBundle> found = ClasspathBundles.find(loader, folder);
    return found.isEmpty() ? Optional.empty()
        : ClasspathBundle.extract(found.get(0).files(), "class path resource " + folder, cache);
  }

  private static Set<String> tree(Path folder) throws Exception {
    try (Stream<Path> files = Files.walk(folder)) {
      return files.filter(Files::isRegularFile).map(p -> folder.relativize(p).toString())
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  private static Set<String> expectedTree(Path root) throws Exception {
    Set<String> expected = new TreeSet<>(Manifest.read(root.resolve(FOLDER).resolve("te-wheel-lib.json")).files()
        .stream().map(ManifestEntry::path).toList());
    expected.add("te-wheel-lib.json");
    return expected;
  }

  @Test
  void twoJvmsExtractingAtOnceBothSucceedWithOneCopyOnDisk() throws Exception {
    Path root = classPathRoot(temp, 48);
    Path cache = temp.resolve("cache");
    Path go = temp.resolve("go");
    List<Process> processes = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      processes.add(ChildJvm.start(ChildJvm.command(List.of("--enable-native-access=ALL-UNNAMED"), root.toString(),
          ExtractProbe.class, List.of(cache.toString(), go.toString())), Map.of(), temp.resolve("logs" + i)));
    }
    Thread.sleep(300);
    Files.createFile(go);
    List<ChildJvm.Result> results = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      results.add(ChildJvm.finish(processes.get(i), temp.resolve("logs" + i)));
    }
    for (ChildJvm.Result result : results) {
      assertEquals(0, result.exit(), result.toString());
    }
    List<String> folders = results.stream().map(r -> r.out().lines().filter(l -> l.startsWith("folder="))
        .findFirst().orElseThrow()).distinct().toList();
    assertEquals(1, folders.size(), results.toString());
    assertEquals(1, results.stream().filter(r -> r.out().contains("extractedNow=true")).count(),
        "exactly one JVM extracted, the other found its finished copy\n" + results);

    Path folder = Path.of(folders.get(0).substring("folder=".length()));
    try (Stream<Path> entries = Files.list(cache)) {
      assertEquals(Set.of(folder.getFileName().toString(), folder.getFileName() + ".lock"),
          entries.map(p -> p.getFileName().toString()).collect(Collectors.toSet()));
    }
    assertEquals(expectedTree(root), tree(folder), "the manifest's files and nothing else (no temporary files)");
    for (String file : tree(folder)) {
      assertEquals(1, Files.getAttribute(folder.resolve(file), "unix:nlink"), file);
    }
    assertEquals(Bundles.sha256(root.resolve(FOLDER).resolve("libnccl_ep.so")),
        Bundles.sha256(folder.resolve("libnccl_ep.so")));
  }

  @Test
  void threadsOfOneJvmShareOneCopyWithoutOverlappingFileLocks() throws Exception {
    Path root = classPathRoot(temp, 8);
    Path cache = temp.resolve("cache");
    int threads = 16;
    CyclicBarrier start = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<Extracted>> results = new ArrayList<>();
    try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, null)) {
      for (int i = 0; i < threads; i++) {
        results.add(pool.submit(() -> {
          start.await();
          return extract(loader, FOLDER, cache).orElseThrow();
        }));
      }
      List<Extracted> extracted = new ArrayList<>();
      for (Future<Extracted> result : results) {
        extracted.add(result.get());
      }
      pool.shutdown();
      assertEquals(1, extracted.stream().map(Extracted::folder).distinct().count());
      assertEquals(1, extracted.stream().filter(Extracted::extractedNow).count());
      assertEquals(expectedTree(root), tree(extracted.get(0).folder()));
    }
  }

  @Test
  void theCacheIsOwnerOnlyAndFilesAreReadOnly() throws Exception {
    Path root = classPathRoot(temp, 0);
    Path cache = temp.resolve("new/cache");
    try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, null)) {
      Path folder = extract(loader, FOLDER, cache).orElseThrow().folder();
      assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cache)));
      assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)));
      assertEquals("r-x------", PosixFilePermissions.toString(
          Files.getPosixFilePermissions(folder.resolve("libnccl_ep.so"))));
      assertEquals("r--------", PosixFilePermissions.toString(
          Files.getPosixFilePermissions(folder.resolve("nccl_ep/include/nccl_ep.h"))));
      assertEquals(32, folder.getFileName().toString().length(), "named by the manifest's SHA-256");
    }
  }

  @Test
  void aCacheFolderOthersCanWriteIsRefused() throws Exception {
    Path root = classPathRoot(temp, 0);
    Path cache = Files.createDirectories(temp.resolve("shared"));
    Files.setPosixFilePermissions(cache, PosixFilePermissions.fromString("rwxrwxrwx"));
    try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, null)) {
      BundleProblem refused = assertThrows(BundleProblem.class, () -> extract(loader, FOLDER, cache));
      assertTrue(refused.getMessage().startsWith("the cache folder " + cache + " is writable by other users"
          + " (rwxrwxrwx)"), refused.getMessage());
      assertTrue(refused.getMessage().endsWith("or pick another folder with -Dte.cacheDir=<folder>"));
    }
  }

  @Test
  void aCompleteBundleFolderAnotherUserMadeIsRefusedNotTrustedByTheFastPath() throws Exception {
    Path root = classPathRoot(temp, 0);
    Path cache = temp.resolve("cache");
    try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, null)) {
      Path folder = extract(loader, FOLDER, cache).orElseThrow().folder();
      String found = OtherUsers.handOver(folder);
      BundleProblem refused = assertThrows(BundleProblem.class, () -> extract(loader, FOLDER, cache));
      assertTrue(refused.getMessage().startsWith("the cache folder " + folder + " " + found), refused.getMessage());
      assertTrue(refused.getMessage().endsWith("or pick another folder with -Dte.cacheDir=<folder>"),
          refused.getMessage());
    }
  }

  @Test
  void aCacheBelowAFolderAnotherUserCanChangeIsRefusedNamingThatFolder() throws Exception {
    Path root = classPathRoot(temp, 0);
    Path above = Files.createDirectories(temp.resolve("above"));
    Path cache = above.resolve("cache");
    String found = OtherUsers.handOverAbove(above);
    try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, null)) {
      BundleProblem refused = assertThrows(BundleProblem.class, () -> extract(loader, FOLDER, cache));
      assertTrue(refused.getMessage().startsWith("the cache folder " + cache + " is not safe: " + above
          + ", a folder above it, " + found), refused.getMessage());
      assertTrue(refused.getMessage().contains("could rename " + cache + " and put another folder in its place"),
          refused.getMessage());
      try (Stream<Path> files = Files.walk(cache)) {
        assertEquals(List.of(cache), files.toList(), "nothing extracted there");
      }
    }
  }

  @Test
  void aCacheBelowAStickyFolderLikeTmpIsUsed() throws Exception {
    Path root = classPathRoot(temp, 0);
    Path sticky = Files.createDirectories(temp.resolve("sticky"));
    Files.setAttribute(sticky, "unix:mode", 01777);
    assertEquals("rwxrwxrwt", modeOf(sticky));
    try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, null)) {
      Extracted extracted = extract(loader, FOLDER, sticky.resolve("cache")).orElseThrow();
      assertEquals(expectedTree(root), tree(extracted.folder()));
    }
  }

  @Test
  void aSymlinkedCacheIsRefusedWithAFixThatCanWork() throws Exception {
    Path root = classPathRoot(temp, 0);
    Path real = Files.createDirectories(temp.resolve("real-cache"));
    Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rwx------"));
    Path link = Files.createSymbolicLink(temp.resolve("cache"), real);
    try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, null)) {
      BundleProblem refused = assertThrows(BundleProblem.class, () -> extract(loader, FOLDER, link));
      assertTrue(refused.getMessage().startsWith("the cache folder " + link + " is a symbolic link to " + real),
          refused.getMessage());
      assertFalse(refused.getMessage().contains("chmod"), "chmod cannot change a link: " + refused.getMessage());
      assertTrue(refused.getMessage().contains("Name the folder the link leads to instead"), refused.getMessage());
      // ... and that fix works.
      assertEquals(expectedTree(root), tree(extract(loader, FOLDER, real).orElseThrow().folder()));
    }
  }

  @Test
  void aLinkAboveTheCacheIsResolvedAndTheRealFolderIsUsed() throws Exception {
    Path root = classPathRoot(temp, 0);
    Path real = Files.createDirectories(temp.resolve("data"));
    Path link = Files.createSymbolicLink(temp.resolve("home"), real);
    try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, null)) {
      Extracted extracted = extract(loader, FOLDER, link.resolve("cache")).orElseThrow();
      assertEquals(real.resolve("cache"), extracted.folder().getParent(), "the real path, which no link change moves");
    }
  }

  @Test
  void aCompleteBundleOnAReadOnlyFileSystemIsUsedWithoutALock() throws Exception {
    Path root = classPathRoot(temp, 0);
    Path cache = temp.resolve("cache");
    String folder;
    try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, null)) {
      folder = extract(loader, FOLDER, cache).orElseThrow().folder().toString();
    }
    Files.delete(cache.resolve(Path.of(folder).getFileName() + ".lock"));
    Path go = Files.createFile(temp.resolve("go"));
    List<String> probe = ChildJvm.command(List.of("--enable-native-access=ALL-UNNAMED"), root.toString(),
        ExtractProbe.class, List.of(cache.toString(), go.toString()));
    List<String> command = new ArrayList<>();
    if (OtherUsers.root()) {
      // A real read-only mount (EROFS), in a mount namespace of the probe's own.
      command.addAll(List.of("unshare", "-m", "sh", "-c", "mount --bind \"$0\" \"$0\" && mount -o remount,bind,ro"
          + " \"$0\" && exec \"$@\"", cache.toString()));
    } else {
      // Not root: a cache folder this user cannot write to (EACCES), which is what a read-only mount gives too.
      Files.setPosixFilePermissions(cache, PosixFilePermissions.fromString("r-x------"));
    }
    command.addAll(probe);
    ChildJvm.Result result = ChildJvm.run(command, Map.of(), temp.resolve("logs"));
    Files.setPosixFilePermissions(cache, PosixFilePermissions.fromString("rwx------"));
    assertEquals(0, result.exit(), result.toString());
    assertTrue(result.out().contains("folder=" + folder + "\nextractedNow=false"), result.toString());
    assertFalse(Files.exists(cache.resolve(Path.of(folder).getFileName() + ".lock")), "no lock file was made");
  }

  private static String modeOf(Path file) throws Exception {
    int mode = (Integer) Files.getAttribute(file, "unix:mode");
    String text = PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
    return (mode & 01000) != 0 ? text.substring(0, 8) + "t" : text;
  }

  @Test
  void aLeftoverOfAKilledRunIsRemovedAndADeletedFileRestored() throws Exception {
    Path root = classPathRoot(temp, 0);
    Path cache = temp.resolve("cache");
    try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, null)) {
      Path folder = extract(loader, FOLDER, cache).orElseThrow().folder();
      Path leftover = folder.resolve(".libnccl_ep.so.1234.part");
      Files.writeString(leftover, "half a library");
      Files.delete(folder.resolve("nccl_ep/include/nccl_ep/device/ll_ep.cuh"));
      Extracted again = extract(loader, FOLDER, cache).orElseThrow();
      assertTrue(again.extractedNow());
      assertFalse(Files.exists(leftover));
      assertEquals(expectedTree(root), tree(folder));
    }
  }

  @Test
  void aDamagedJarIsRefusedAndNothingIsPublished() throws Exception {
    Path root = classPathRoot(temp, 0);
    Files.writeString(root.resolve(FOLDER).resolve("nccl_ep/include/nccl_ep.h"), "#define NCCL_EP_MAJOR 7\n");
    Path cache = temp.resolve("cache");
    try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, null)) {
      BundleProblem refused = assertThrows(BundleProblem.class, () -> extract(loader, FOLDER, cache));
      assertTrue(refused.getMessage().startsWith("class path resource " + FOLDER
          + "/nccl_ep/include/nccl_ep.h does not match the bundle's manifest ("), refused.getMessage());
      try (Stream<Path> files = Files.walk(cache)) {
        assertEquals(List.of(), files.filter(p -> p.getFileName().toString().equals("nccl_ep.h")
            || p.getFileName().toString().endsWith(".part")).toList());
      }
    }
  }

  @Test
  void noBundleOnTheClassPathIsNoBundle() throws Exception {
    try (URLClassLoader loader = new URLClassLoader(new URL[0], null)) {
      assertEquals(java.util.Optional.empty(), extract(loader, FOLDER, temp.resolve("cache")));
      assertFalse(Files.exists(temp.resolve("cache")), "nothing is created when there is nothing to extract");
    }
  }

  @Test
  void aTamperedExtractedFileIsRefusedByAvailabilityAndLoad() throws Exception {
    FreshJvm.run(getClass(), "tampered", temp);
  }

  static void tampered(Path temp) throws Exception {
    Path root = classPathRoot(temp, 0);
    Path cache = temp.resolve("cache");
    try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, null)) {
      TeRuntime runtime = TeRuntime.builder().classLoader(loader).cacheFolder(cache).ncclLibrary(Bundles.NCCL).build();
      Availability first = runtime.availability();
      assertTrue(first.available(), first.toString());
      assertEquals("used: extracted now", first.searched().get(4).describe());
      Path library = first.chosenFile().orElseThrow();
      assertTrue(library.startsWith(cache), library.toString());

      Files.setPosixFilePermissions(library, PosixFilePermissions.fromString("rwx------"));
      try (RandomAccessFile file = new RandomAccessFile(library.toFile(), "rw")) {
        file.seek(file.length() - 1);
        int last = file.read();
        file.seek(file.length() - 1);
        file.write(last ^ 0xff);
      }
      Availability second = runtime.availability();
      assertFalse(second.available());
      assertTrue(second.reason().startsWith("the extracted bundle in " + library.getParent() + " does not match its"
          + " manifest, so te-runtime will not load it: " + library + " has sha256 "), second.reason());
      assertTrue(second.reason().endsWith("delete " + library.getParent() + " to extract it again"));
      assertEquals("refused", second.searched().get(4).describe());
      LoadException refused = assertThrows(LoadException.class, runtime::loadNcclEp);
      assertEquals("NCCL EP is not available: " + second.reason(), refused.getMessage());
      assertFalse(Files.readString(Path.of("/proc/self/maps")).contains(library.toString()),
          "the tampered library was never mapped");
      assertTrue(Files.exists(library, LinkOption.NOFOLLOW_LINKS), "a finished file is never overwritten");
    }
  }

  @Test
  void aCacheFolderOnANoexecMountIsRefusedNamingTheProperty() throws Exception {
    // A noexec mount of our own, in a user and mount namespace (no root needed where user namespaces are allowed).
    Process probe = new ProcessBuilder("unshare", "-rm", "true").redirectErrorStream(true).start();
    // Never skipped: a machine without user namespaces fails here, saying what the test needs.
    assertTrue(probe.waitFor() == 0, "this test needs 'unshare -rm' (util-linux, with user namespaces allowed) to"
        + " mount a noexec file system of its own; the check under test is ClasspathBundle.prepareCacheFolder"
        + " (statvfs ST_NOEXEC)");
    Path root = classPathRoot(temp, 0);
    Path mount = Files.createDirectories(temp.resolve("noexec"));
    Path go = Files.createFile(temp.resolve("go"));
    List<String> command = new ArrayList<>(List.of("unshare", "-rm", "sh", "-c",
        "mount -t tmpfs -o noexec none \"$0\" && exec \"$@\"", mount.toString()));
    command.addAll(ChildJvm.command(List.of("--enable-native-access=ALL-UNNAMED"), root.toString(), ExtractProbe.class,
        List.of(mount.resolve("cache").toString(), go.toString())));
    ChildJvm.Result result = ChildJvm.run(command, Map.of(), temp.resolve("logs"));
    assertEquals(2, result.exit(), result.toString());
    assertTrue(result.out().startsWith("problem=the cache folder " + mount.resolve("cache")
        + " is on a file system mounted noexec, so libraries extracted there cannot be loaded"), result.toString());
    assertTrue(result.out().contains("Pick a folder on another file system with -Dte.cacheDir=<folder>"),
        result.toString());
  }
}
