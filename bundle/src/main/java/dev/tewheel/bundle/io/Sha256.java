package dev.tewheel.bundle.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * SHA-256, the one digest of the project (manifest entries, RECORD rows, assemble's state, the runtime's checks),
 * computed the one way: streamed in bounded memory, never a whole-file read. Digests are raw bytes; {@link #hex}
 * gives the lower-case hex the manifest records.
 */
public final class Sha256 {
  private static final int STREAM_BUFFER = 1 << 16;

  private Sha256() {}

  /** A fresh digest, for callers that hash bytes as they pass (a copy, a download). */
  public static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  public static byte[] of(byte[] bytes) {
    return newDigest().digest(Objects.requireNonNull(bytes));
  }

  /** The file's digest, read through a direct buffer ({@link FileChunks}). */
  public static byte[] of(Path file) throws IOException {
    MessageDigest digest = newDigest();
    FileChunks.read(file, digest::update);
    return digest.digest();
  }

  /** The digest of what {@code in} yields up to its end; the caller closes it. */
  public static byte[] of(InputStream in) throws IOException {
    MessageDigest digest = newDigest();
    byte[] buffer = new byte[STREAM_BUFFER];
    for (int n; (n = in.read(buffer)) > 0; ) {
      digest.update(buffer, 0, n);
    }
    return digest.digest();
  }

  /** Lower-case hex, as the manifest and assemble's state record a digest. */
  public static String hex(byte[] digest) {
    return HexFormat.of().formatHex(digest);
  }
}
