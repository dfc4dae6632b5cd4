package dev.tewheel.runtime.internal.search;

import dev.tewheel.bundle.io.Sha256;
import dev.tewheel.bundle.layout.BundleFiles;
import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.bundle.manifest.FileKind;
import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.bundle.manifest.ManifestEntry;
import dev.tewheel.bundle.manifest.ManifestException;
import dev.tewheel.bundle.manifest.ManifestFiles;
import dev.tewheel.runtime.internal.ffm.Libc;
import dev.tewheel.runtime.internal.host.TrustedFolder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
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
  /** The property that picks another cache folder. */
  public static final String CACHE_PROPERTY = "te.cacheDir";

  private static final String TEMP_SUFFIX = ".part";
  private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_FILE =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
  private static final Map<Path, ReentrantLock> LOCKS = new ConcurrentHashMap<>();

  /** A class-path bundle ready to use: the extracted wheel_lib, its manifest, whether this call wrote any file. */
  public record Extracted(Path folder, Manifest manifest, boolean extractedNow) {}

  private ClasspathBundle() {}

  /** The cache folder when none is configured: {@code $XDG_CACHE_HOME/te-wheel}, else {@code ~/.cache/te-wheel}. */
  public static Path defaultCacheFolder() {
    String xdg = Libc.getenv("XDG_CACHE_HOME");
    Path base = xdg != null && xdg.startsWith("/") ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("te-wheel");
  }

  /**
   * Extracts the bundle whose files {@code files} opens, or returns empty when it has no manifest; {@code label}
   * names it in messages ({@code class path resource <folder>}).
   *
   * @throws BundleProblem when the cache folder cannot be used, the class path's bundle is damaged, or an extracted
   *     file differs from the manifest
   */
  public static Optional<Extracted> extract(BundleFiles files, String label, Path cacheRoot) throws BundleProblem {
    String manifestName = label + "/" + Layout.MANIFEST;
    byte[] manifestBytes;
    Manifest manifest;
    try (InputStream in = files.open(Layout.MANIFEST)) {
      if (in == null) {
        return Optional.empty();
      }
      manifestBytes = Manifest.bytes(in, manifestName);
      manifest = Manifest.parse(new String(manifestBytes, StandardCharsets.UTF_8), manifestName);
    } catch (IOException e) {
      throw new BundleProblem("could not read " + manifestName + ": " + e.getMessage(), e);
    } catch (ManifestException e) {
      throw new BundleProblem(e.getMessage(), e);
    }
    String manifestSha256 = Sha256.hex(Sha256.of(manifestBytes));
    // Every file, then the manifest: its presence says every file before it was published.
    List<ManifestEntry> all = new ArrayList<>(manifest.files());
    all.add(ManifestEntry.header(Layout.MANIFEST, manifestBytes.length, manifestSha256));
    Path root = cacheRoot.toAbsolutePath().normalize();
    try {
      root = prepareCacheFolder(root);
      Path target = root.resolve(manifestSha256.substring(0, 32));
      boolean wrote = false;
      // A complete bundle needs no lock (none is taken on a read-only file system), only the folder rule.
      if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS) || !complete(trusted(target), all)) {
        wrote = extractLocked(files, label, all, root, target);
      }
      List<String> problems = Digests.check(trusted(target), all, true);
      if (!problems.isEmpty()) {
        throw new BundleProblem("the extracted bundle in " + target + " does not match its manifest, so te-runtime"
            + " will not load it: " + String.join("; ", problems) + ". A file there was changed after extraction;"
            + " delete " + target + " to extract it again");
      }
      return Optional.of(new Extracted(target, manifest, wrote));
    } catch (IOException e) {
      throw new BundleProblem("could not extract " + label + " into " + root + ": " + e
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

  private static boolean extractLocked(BundleFiles files, String label, List<ManifestEntry> all, Path root,
      Path target) throws IOException, BundleProblem {
    ReentrantLock inProcess = LOCKS.computeIfAbsent(target, t -> new ReentrantLock());
    inProcess.lock();
    try (FileChannel channel = FileChannel.open(root.resolve(target.getFileName() + ".lock"),
        Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE), OWNER_ONLY_FILE)) {
      channel.lock(); // held until the channel closes
      if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
        Files.createDirectories(target, TrustedFolder.PRIVATE);
      }
      trusted(target);
      if (complete(target, all)) {
        return false;
      }
      removeLeftovers(target);
      boolean wrote = false;
      for (ManifestEntry entry : all) {
        Path file = WheelLibPaths.inside(target, entry.path());
        if (file == null) {
          throw new BundleProblem("the class path bundle's manifest lists '" + entry.path()
              + "', which is outside the bundle");
        }
        wrote |= publish(file, entry, files, label + "/" + entry.path());
      }
      return wrote;
    } finally {
      inProcess.unlock();
    }
  }

  /** Whether every file is there, the manifest (published last) among them. */
  private static boolean complete(Path target, List<ManifestEntry> all) {
    return all.stream().map(entry -> WheelLibPaths.inside(target, entry.path()))
        .allMatch(file -> file != null && Files.exists(file, LinkOption.NOFOLLOW_LINKS));
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

  /**
   * Writes one file beside its final name, checks it against its entry and publishes it, unless a finished copy is
   * there; true if written.
   */
  private static boolean publish(Path file, ManifestEntry entry, BundleFiles files, String resource)
      throws IOException, BundleProblem {
    if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    Path parent = file.getParent();
    Files.createDirectories(parent, TrustedFolder.PRIVATE);
    Path temp = Files.createTempFile(parent, "." + file.getFileName() + ".", TEMP_SUFFIX, OWNER_ONLY_FILE);
    try {
      ManifestFiles.Copied copied;
      try (InputStream in = files.open(entry.path());
          FileChannel out = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        if (in == null) {
          throw new BundleProblem(resource + " is missing, though the bundle's manifest lists it");
        }
        copied = ManifestFiles.copy(in, entry, Channels.newOutputStream(out));
        out.force(true);
      }
      if (!copied.matches()) {
        throw new BundleProblem(resource + " does not match the bundle's manifest (" + copied.difference()
            + "): the jar that carries it is damaged; rebuild it");
      }
      boolean executable = entry.kind() != FileKind.HEADER;
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
}
