package dev.tewheel.runtime.internal.search;

import dev.tewheel.bundle.io.Sha256;
import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.bundle.manifest.ManifestEntry;
import dev.tewheel.bundle.manifest.ManifestFiles;
import dev.tewheel.runtime.internal.host.PinnedLibrary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks a bundle's files against its manifest: size always, SHA-256 when asked. A file once hashed is not hashed
 * again in this process while its size, device, inode and ctime (which no user can set) stay the same. A library
 * about to be loaded is checked once more on its open descriptor ({@link PinnedLibrary}), so that the bytes compared
 * are the bytes loaded.
 */
public final class Digests {
  private static final Map<Path, Stamp> VERIFIED = new ConcurrentHashMap<>();

  private record Stamp(long size, Object device, Object inode, Object ctime) {}

  private Digests() {}

  /**
   * Every problem of {@code folder} against {@code entries}, one sentence each; empty when all match. The comparison
   * is bundle's ({@link ManifestFiles}); this reads the files: only regular files inside the folder, each hashed
   * once while its size, inode and ctime stay the same.
   *
   * @param hashes whether to compare SHA-256 as well as sizes
   */
  public static List<String> check(Path folder, List<ManifestEntry> entries, boolean hashes) {
    return sentences(folder, ManifestFiles.compare(entries, entry -> find(folder, entry), hashes));
  }

  /**
   * The problems of an opened library against its manifest entry, as {@link #check} words them: its size as fstat
   * gave it, its SHA-256 read through the descriptor (or known from before for this very inode, unchanged since).
   */
  public static List<String> check(Path folder, PinnedLibrary library, ManifestEntry entry, boolean hashes) {
    // An anonymous class, not a lambda: this runs on the cold path to the first NCCL EP call.
    ManifestFiles.Lookup opened = new ManifestFiles.Lookup() {
      @Override
      public Optional<ManifestFiles.Shipped> find(ManifestEntry e) throws IOException {
        return Optional.of(shipped(library.file(), library.bytes(), e, new LinkOption[0]));
      }
    };
    return sentences(folder, ManifestFiles.compare(List.of(entry), opened, hashes));
  }

  private static List<String> sentences(Path folder, List<ManifestFiles.Mismatch> mismatches) {
    List<String> problems = new ArrayList<>();
    for (ManifestFiles.Mismatch m : mismatches) {
      Path file = folder.resolve(m.entry().path());
      problems.add(switch (m.problem()) {
        case MISSING -> file + " is missing";
        case UNREADABLE -> m.actual();
        case SIZE -> file + " is " + m.actual() + " bytes, the manifest says " + m.entry().size();
        case SHA256 -> file + " has sha256 " + m.actual() + ", the manifest says " + m.entry().sha256();
      });
    }
    return problems;
  }

  /** The entry's file, if a regular file inside the folder; an IOException's message is the problem's sentence. */
  private static Optional<ManifestFiles.Shipped> find(Path folder, ManifestEntry entry) throws IOException {
    Path file = WheelLibPaths.inside(folder, entry.path());
    if (file == null) {
      throw new IOException("the manifest lists '" + entry.path() + "', which is outside the bundle");
    }
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    String kind = WheelLibPaths.kindOf(file);
    if (kind != null) {
      throw new IOException(file + " is " + kind + ", not the regular file the manifest lists");
    }
    return Optional.of(shipped(file, file, entry, new LinkOption[] {LinkOption.NOFOLLOW_LINKS}));
  }

  /**
   * The file as the comparison reads it.
   *
   * @param file its path, which the cache of hashed files is kept by
   * @param bytes where its bytes are read: the path itself, or an open descriptor's {@code /proc/self/fd/N}
   */
  private static ManifestFiles.Shipped shipped(Path file, Path bytes, ManifestEntry entry, LinkOption[] options)
      throws IOException {
    Map<String, Object> attributes;
    try {
      attributes = Files.readAttributes(bytes, "unix:size,dev,ino,ctime", options);
    } catch (IOException e) {
      throw new IOException(file + " cannot be read: " + e.getMessage(), e);
    }
    Stamp stamp = new Stamp((Long) attributes.get("size"), attributes.get("dev"), attributes.get("ino"),
        attributes.get("ctime"));
    return new ManifestFiles.Shipped() {
      @Override
      public long size() {
        return stamp.size();
      }

      @Override
      public String sha256() throws IOException {
        if (stamp.equals(VERIFIED.get(file))) {
          return entry.sha256(); // hashed before, unchanged since
        }
        String actual = Sha256.hex(Sha256.of(bytes));
        if (actual.equals(entry.sha256())) {
          VERIFIED.put(file, stamp);
        } else {
          VERIFIED.remove(file);
        }
        return actual;
      }
    };
  }
}
