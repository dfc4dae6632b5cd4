package dev.tewheel.bundle.manifest;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether a wheel_lib's files are the ones its manifest records, by size and SHA-256: the one comparison that
 * MANIFEST-DIGESTS makes on a folder or a .whl and te-runtime makes before it loads a bundle. Each caller reads its
 * files its own way ({@link Lookup}) and words the mismatches for its readers.
 */
public final class ManifestFiles {
  private ManifestFiles() {}

  /** A shipped file as the caller reads it. */
  public interface Shipped {
    long size() throws IOException;

    /** The SHA-256 of its bytes, lower-case hex (a caller may answer from files it hashed before). */
    String sha256() throws IOException;
  }

  /** Finds the file a manifest entry names: empty when there is none; an IOException says why it cannot be read. */
  public interface Lookup {
    Optional<Shipped> find(ManifestEntry entry) throws IOException;
  }

  /** What is wrong with one recorded file. */
  public enum Problem {
    MISSING, UNREADABLE, SIZE, SHA256
  }

  /**
   * One recorded file that is not as recorded.
   *
   * @param entry the manifest's record
   * @param problem what is wrong
   * @param actual what was found: the size, the digest, or why it could not be read; empty when missing
   */
  public record Mismatch(ManifestEntry entry, Problem problem, String actual) {}

  /**
   * Every recorded file that is not as recorded, in the manifest's order; none when all match.
   *
   * @param hashes whether to compare SHA-256 as well as sizes
   */
  public static List<Mismatch> compare(List<ManifestEntry> entries, Lookup files, boolean hashes) {
    List<Mismatch> mismatches = new ArrayList<>();
    for (ManifestEntry entry : entries) {
      try {
        Optional<Shipped> shipped = files.find(entry);
        if (shipped.isEmpty()) {
          mismatches.add(new Mismatch(entry, Problem.MISSING, ""));
          continue;
        }
        long size = shipped.get().size();
        if (size != entry.size()) {
          mismatches.add(new Mismatch(entry, Problem.SIZE, Long.toString(size)));
          continue;
        }
        if (hashes) {
          String digest = shipped.get().sha256();
          if (!digest.equals(entry.sha256())) {
            mismatches.add(new Mismatch(entry, Problem.SHA256, digest));
          }
        }
      } catch (IOException e) {
        mismatches.add(new Mismatch(entry, Problem.UNREADABLE, String.valueOf(e.getMessage())));
      }
    }
    return mismatches;
  }
}
