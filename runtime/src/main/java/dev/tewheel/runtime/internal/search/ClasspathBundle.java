package dev.tewheel.runtime.internal.search;

import dev.tewheel.bundle.io.Sha256;
import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.bundle.manifest.FileKind;
import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.bundle.manifest.ManifestEntry;
import dev.tewheel.bundle.manifest.ManifestException;
import dev.tewheel.runtime.internal.ffm.Libc;
import dev.tewheel.runtime.internal.host.TrustedFolder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

/**
 * A wheel_lib packaged on the class path under a resource folder (its {@code te-wheel-lib.json} lists every file),
 * extracted once into a per-user cache so that dlopen can map it:
 * <ul>
 *   <li>the cache folder is created owner-only, and refused when it sits on a {@code noexec} mount or breaks
 *       {@link TrustedFolder}'s rule (another user's, writable by others, a symbolic link, or below a folder another
 *       user could change); each bundle's folder is held to the same rule, also when it is complete;</li>
 *   <li>each bundle goes to a folder named by the SHA-256 of its manifest, which lists every file's SHA-256, so
 *       different contents never share a folder;</li>
 *   <li>each file is written to a temporary name in its final folder, synced, checked against the manifest and
 *       published with link(2), which never replaces a finished file (rename(2) is the fallback where hard links
 *       are not supported); the folder is synced after;</li>
 *   <li>a file lock serialises JVMs, and an in-process lock taken first serialises threads (a file lock alone
 *       throws OverlappingFileLockException between two threads of one JVM);</li>
 *   <li>every file's size and SHA-256 are checked before use, on every first use in a process, so a tampered or
 *       partial file is never loaded;</li>
 *   <li>a complete bundle is checked and used without the lock, so a read-only cache works.</li>
 * </ul>
 */
final class ClasspathBundle {
  /** The resource folder looked up when none is configured. */
  public static final String DEFAULT_RESOURCE_FOLDER = Layout.RESOURCE_FOLDER;
  /** The property that picks another cache folder. */
  public static final String CACHE_PROPERTY = "te.cacheDir";

  private static final String TEMP_SUFFIX = ".part";
  private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_FILE =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
  private static final Map<Path, ReentrantLock> LOCKS = new ConcurrentHashMap<>();

  /**
   * A class-path bundle ready to use.
   *
   * @param folder the extracted wheel_lib
   * @param manifest its manifest
   * @param extractedNow whether this call wrote any file
   */
  public record Extracted(Path folder, Manifest manifest, boolean extractedNow) {}

  private ClasspathBundle() {}

  /** The cache folder when none is configured: {@code $XDG_CACHE_HOME/te-wheel}, else {@code ~/.cache/te-wheel}. */
  public static Path defaultCacheFolder() {
    String xdg = Libc.getenv("XDG_CACHE_HOME");
    Path base = xdg != null && xdg.startsWith("/") ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("te-wheel");
  }

  /**
   * Extracts the bundle under {@code resourceFolder}, or returns empty when the class path has no manifest there.
   *
   * @throws BundleProblem when the cache folder cannot be used, the class path's bundle is damaged, or an extracted
   *     file differs from the manifest
   */
  public static Optional<Extracted> extract(ClassLoader loader, String resourceFolder, Path cacheRoot)
      throws BundleProblem {
    String folder = trimSlashes(resourceFolder);
    return extract(name -> loader.getResourceAsStream(folder + "/" + name), "class path resource " + folder,
        cacheRoot);
  }

  /** Reads one file of a bundle by its path in the bundle; null when the bundle lacks it. */
  public interface BundleFiles {
    InputStream open(String name) throws IOException;
  }

  /**
   * Extracts the bundle whose files {@code files} opens (one jar's, never mixed with another's), or returns empty
   * when it has no manifest; {@code label} names it in messages ({@code class path resource <folder>}).
   */
  public static Optional<Extracted> extract(BundleFiles files, String label, Path cacheRoot) throws BundleProblem {
    String folder = label;
    String manifestName = folder + "/" + Layout.MANIFEST;
    byte[] manifestBytes;
    try (InputStream in = files.open(Layout.MANIFEST)) {
      if (in == null) {
        return Optional.empty();
      }
      manifestBytes = in.readNBytes(Manifest.MAX_BYTES + 1);
    } catch (IOException e) {
      throw new BundleProblem("could not read " + manifestName + ": " + e.getMessage(), e);
    }
    if (manifestBytes.length > Manifest.MAX_BYTES) {
      throw new BundleProblem(manifestName + " is larger than " + Manifest.MAX_BYTES
          + " bytes; it is not a te-wheel manifest");
    }
    Manifest manifest;
    try {
      manifest = Manifest.parse(new String(manifestBytes, StandardCharsets.UTF_8), manifestName);
    } catch (ManifestException e) {
      throw new BundleProblem(e.getMessage(), e);
    }
    Path root = cacheRoot.toAbsolutePath().normalize();
    try {
      root = prepareCacheFolder(root);
      Path target = root.resolve(Sha256.hex(Sha256.of(manifestBytes)).substring(0, 32));
      List<ManifestEntry> all = new ArrayList<>(manifest.files());
      all.add(ManifestEntry.header(Layout.MANIFEST, manifestBytes.length, Sha256.hex(Sha256.of(manifestBytes))));
      boolean wrote = false;
      // A complete bundle needs no lock (none is taken on a read-only file system), only the folder rule.
      if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS) || !complete(trusted(target), manifest)) {
        wrote = extractLocked(files, folder, manifest, manifestBytes, root, target);
      }
      List<String> problems = Digests.check(trusted(target), all, true);
      if (!problems.isEmpty()) {
        throw new BundleProblem("the extracted bundle in " + target + " does not match its manifest, so te-runtime"
            + " will not load it: " + String.join("; ", problems) + ". A file there was changed after extraction;"
            + " delete " + target + " to extract it again");
      }
      return Optional.of(new Extracted(target, manifest, wrote));
    } catch (IOException e) {
      throw new BundleProblem("could not extract " + folder + " into " + root + ": " + e
          + ". Pick another cache folder with -D" + CACHE_PROPERTY + "=<folder>", e);
    }
  }

  /**
   * Creates the cache folder owner-only if missing; refuses one on a noexec mount or one {@link TrustedFolder}
   * refuses. Returns its real path, which is used from then on.
   */
  static Path prepareCacheFolder(Path root) throws IOException, BundleProblem {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      Files.createDirectories(root, TrustedFolder.PRIVATE);
    }
    // noexec first: such a folder is refused whoever owns it.
    if ((Libc.mountFlags(root) & Libc.ST_NOEXEC) != 0) {
      throw new BundleProblem("the cache folder " + root + " is on a file system mounted noexec, so libraries"
          + " extracted there cannot be loaded (dlopen would fail with 'failed to map segment from shared object')."
          + " Pick a folder on another file system with -D" + CACHE_PROPERTY + "=<folder> (or"
          + " TeRuntime.Builder.cacheFolder)");
    }
    return trusted(root);
  }

  /** {@code folder} by {@link TrustedFolder}'s rule, or the refusal as a BundleProblem naming the property. */
  private static Path trusted(Path folder) throws IOException, BundleProblem {
    try {
      return TrustedFolder.require(folder);
    } catch (TrustedFolder.Refusal refusal) {
      throw new BundleProblem(refusal.describe("the cache folder") + ", or pick another folder with -D"
          + CACHE_PROPERTY + "=<folder>", refusal);
    }
  }

  private static boolean extractLocked(BundleFiles files, String folder, Manifest manifest, byte[] manifestBytes,
      Path root, Path target) throws IOException, BundleProblem {
    ReentrantLock inProcess = LOCKS.computeIfAbsent(target, t -> new ReentrantLock());
    inProcess.lock();
    try (FileChannel channel = FileChannel.open(root.resolve(target.getFileName() + ".lock"),
        Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE), OWNER_ONLY_FILE)) {
      channel.lock(); // held until the channel closes
      if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
        Files.createDirectories(target, TrustedFolder.PRIVATE);
      }
      trusted(target);
      if (complete(target, manifest)) {
        return false;
      }
      removeLeftovers(target);
      boolean wrote = false;
      for (ManifestEntry entry : manifest.files()) {
        Path file = WheelLibPaths.inside(target, entry.path());
        if (file == null) {
          throw new BundleProblem("the class path bundle's manifest lists '" + entry.path()
              + "', which is outside the bundle");
        }
        wrote |= publish(file, entry.size(), entry.sha256(), entry.kind() != FileKind.HEADER,
            () -> files.open(entry.path()), folder + "/" + entry.path());
      }
      // The manifest last: its presence says every file before it was published.
      wrote |= publish(target.resolve(Layout.MANIFEST), manifestBytes.length, Sha256.hex(Sha256.of(manifestBytes)), false,
          () -> new ByteArrayInputStream(manifestBytes), folder + "/" + Layout.MANIFEST);
      return wrote;
    } finally {
      inProcess.unlock();
    }
  }

  /** Whether the manifest, published last, and every file it lists are there. */
  private static boolean complete(Path target, Manifest manifest) {
    if (!Files.isRegularFile(target.resolve(Layout.MANIFEST), LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    for (ManifestEntry entry : manifest.files()) {
      Path file = WheelLibPaths.inside(target, entry.path());
      if (file == null || !Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
        return false;
      }
    }
    return true;
  }

  /** Temporary files of a run that died mid-write; only called under both locks, so no one is writing them. */
  private static void removeLeftovers(Path target) throws IOException {
    try (Stream<Path> files = Files.walk(target)) {
      for (Path file : files.filter(p -> {
        String name = p.getFileName().toString();
        return name.startsWith(".") && name.endsWith(TEMP_SUFFIX);
      }).toList()) {
        Files.deleteIfExists(file);
      }
    }
  }

  private interface Source {
    InputStream open() throws IOException;
  }

  /** Writes one file beside its final name and publishes it, unless a finished copy is there; true if written. */
  private static boolean publish(Path file, long size, String sha256, boolean executable, Source source,
      String resource) throws IOException, BundleProblem {
    if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    Path parent = file.getParent();
    Files.createDirectories(parent, TrustedFolder.PRIVATE);
    Path temp = Files.createTempFile(parent, "." + file.getFileName() + ".", TEMP_SUFFIX, OWNER_ONLY_FILE);
    try {
      MessageDigest digest = Sha256.newDigest();
      long written = 0;
      try (InputStream in = source.open(); FileChannel out = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        if (in == null) {
          throw new BundleProblem(resource + " is missing, though the bundle's manifest lists it");
        }
        byte[] buffer = new byte[1 << 16];
        for (int n; (n = in.read(buffer)) > 0; ) {
          written += n;
          if (written > size) {
            break;
          }
          digest.update(buffer, 0, n);
          ByteBuffer chunk = ByteBuffer.wrap(buffer, 0, n);
          while (chunk.hasRemaining()) {
            out.write(chunk);
          }
        }
        out.force(true);
      }
      String actual = Sha256.hex(digest.digest());
      if (written != size || !actual.equals(sha256)) {
        throw new BundleProblem(resource + " does not match the bundle's manifest ("
            + (written != size ? (written > size ? "more than " : "") + written + " bytes, expected " + size
                : "sha256 " + actual + ", expected " + sha256)
            + "): the jar that carries it is damaged; rebuild it");
      }
      Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString(executable ? "r-x------" : "r--------"));
      try {
        Files.createLink(file, temp);
      } catch (FileAlreadyExistsException e) {
        return false;
      } catch (UnsupportedOperationException | IOException e) {
        // No hard links here: rename, which is atomic; both locks are held, so no finished copy can appear meanwhile.
        try {
          Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException unsupported) {
          throw new IOException("neither link(2) nor an atomic rename works in " + parent, unsupported);
        }
      }
      syncFolder(parent);
      return true;
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  private static void syncFolder(Path folder) {
    try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // Some file systems cannot open or sync a folder; the files themselves were synced.
    }
  }

  private static String trimSlashes(String folder) {
    String trimmed = folder.strip();
    while (trimmed.startsWith("/")) {
      trimmed = trimmed.substring(1);
    }
    while (trimmed.endsWith("/")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1);
    }
    return trimmed;
  }
}
