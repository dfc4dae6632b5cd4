package dev.tewheel.core.verify;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.bundle.manifest.ManifestException;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.DiskFile;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.zip.OverBoundException;
import dev.tewheel.core.zip.ZipBombBounds;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.Set;

/**
 * A wheel_lib folder on disk as checks see it: every entry, symlinks not followed, with its type and mode. The walk
 * follows no link, so a link loop cannot make it circle; it is listed as the link it is. Only regular files are
 * ever opened ({@link DiskFile}): a FIFO, socket or device is listed by type, and LAYOUT-FILE-TYPES reports it.
 */
public final class FolderSubject {
  private FolderSubject() {}

  /**
   * Reads the folder.
   *
   * @param fallback the layout to assume when the folder has no manifest
   */
  public static Subject read(Path wheelLib, Layout fallback, CheckSettings settings) throws IOException {
    if (!Files.isDirectory(wheelLib)) {
      throw new IOException("wheelLib " + wheelLib + " is not a folder: expected a wheel_lib laid out by"
          + " te:assemble-wheel-lib");
    }
    List<SubjectFile> files = new ArrayList<>();
    // The walk itself follows no link, the folder named by the user excepted.
    Path root = Files.isSymbolicLink(wheelLib) ? wheelLib.toRealPath() : wheelLib;
    requireWithinBound(wheelLib, root);
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
        files.add(new Entry(root.relativize(file).toString().replace('\\', '/'), file,
            Files.readAttributes(file, PosixFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS)));
        return FileVisitResult.CONTINUE;
      }
    });
    Layout layout = fallback;
    Manifest manifest = null;
    Path manifestFile = wheelLib.resolve(Layout.MANIFEST);
    if (!fallback.any() && Files.isRegularFile(manifestFile, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      try {
        manifest = Manifest.read(manifestFile);
        layout = manifest.toLayout();
      } catch (ManifestException e) {
        // MANIFEST-DIGESTS reports it; the fallback layout stands in.
      }
    }
    String description = layout.any() ? "folder " + wheelLib + " (layout any)" : "wheel_lib " + wheelLib;
    Subject subject = new Subject(description, layout, files, settings);
    return manifest == null ? subject : subject.withManifest(manifest);
  }

  /**
   * Counts the folder's entries, stopping past the bound: a folder of more entries than a wheel may hold
   * ({@link ZipBombBounds#maxEntries()}) is refused before an object is made for any of them.
   *
   * @throws OverBoundException naming the folder and the bound
   */
  private static void requireWithinBound(Path wheelLib, Path root) throws IOException {
    int max = ZipBombBounds.DEFAULTS.maxEntries();
    long[] count = {0};
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
        return ++count[0] > max + 1L ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
        return ++count[0] > max + 1L ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
      }
    });
    if (count[0] > max + 1L) { // the folder itself is not an entry
      ZipBombBounds.Problem problem = new ZipBombBounds.Problem(ZipBombBounds.Kind.ENTRY_COUNT,
          java.util.Optional.empty(), String.format(Locale.ROOT, "more than %,d entries", max),
          String.format(Locale.ROOT, "at most %,d entries", max));
      throw new OverBoundException("folder " + wheelLib + " holds " + problem.found() + ", beyond "
          + problem.expected() + " (the bound WHEEL-BOMB holds a wheel to; a wheel_lib holds a few dozen files); it"
          + " is not read further", problem);
    }
  }

  /** An entry of the folder: a file on disk that also knows its type and mode, symlinks not followed. */
  private static final class Entry extends DiskFile {
    private final PosixFileAttributes attributes;

    Entry(String path, Path file, PosixFileAttributes attributes) {
      super(path, file, false);
      this.attributes = attributes;
    }

    @Override
    public long size() {
      return attributes.size();
    }

    @Override
    public EntryType type() {
      if (attributes.isSymbolicLink()) {
        return EntryType.SYMLINK;
      }
      return attributes.isRegularFile() ? EntryType.FILE : EntryType.OTHER;
    }

    @Override
    public OptionalInt mode() {
      return OptionalInt.of(bits(attributes.permissions()));
    }

    private static int bits(Set<PosixFilePermission> permissions) {
      int mode = 0;
      for (PosixFilePermission p : permissions) {
        mode |= 1 << (8 - p.ordinal());
      }
      return mode;
    }
  }
}
