package dev.tewheel.bundle.manifest;

import dev.tewheel.bundle.io.Sha256;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether a wheel_lib's files are the ones its manifest records, by size and SHA-256: the one comparison that
 * MANIFEST-DIGESTS makes on a folder or a .whl and te-runtime makes before it loads a bundle. Each caller reads its
 * files its own way ({@link Lookup}) and words the mismatches for its readers. A file copied out of a bundle (into a
 * jar, into te-runtime's cache) is compared as it passes ({@link #copy}).
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

  /**
   * What passed in a {@link #copy} of a recorded file: its bytes, counted up to one buffer past the recorded size,
   * and their SHA-256.
   */
  public record Copied(ManifestEntry entry, long bytes, String sha256) {
    public boolean matches() {
      return bytes == entry.size() && sha256.equals(entry.sha256());
    }

    /** What differs, for a message: the size ("more than" when the copy stopped early), else the digest. */
    public String difference() {
      return bytes != entry.size() ? (bytes > entry.size() ? "more than " : "") + bytes + " bytes, expected "
          + entry.size() : "sha256 " + sha256 + ", expected " + entry.sha256();
    }
  }

  /**
   * Copies the bytes of the file {@code entry} records from {@code in} to {@code out}, hashing what passes; the
   * caller refuses the copy unless it {@linkplain Copied#matches matches}. It stops one buffer past the recorded
   * size, so a damaged source never writes without bound.
   */
  public static Copied copy(InputStream in, ManifestEntry entry, OutputStream out) throws IOException {
    MessageDigest digest = Sha256.newDigest();
    byte[] buffer = new byte[1 << 16];
    long bytes = 0;
    for (int n; bytes <= entry.size() && (n = in.read(buffer)) > 0; bytes += n) {
      digest.update(buffer, 0, n);
      out.write(buffer, 0, n);
    }
    return new Copied(entry, bytes, Sha256.hex(digest.digest()));
  }
}
