package dev.tewheel.bundle.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.regex.Pattern;

/**
 * Every output is written beside its target and renamed into place, so a failure leaves the old result or none
 * (design decision 5). The one implementation of that rule: manifests, reports, assemble's state, wheels.
 *
 * <p>The temporary file is one of {@link OwnTemporaries} (kind {@value #KIND}): created with the default mode, so
 * the result has the mode any tool's output has (0644 under umask 022), and removed by the next write of the same
 * target when a kill left it behind.
 */
public final class AtomicFiles {
  /** The kind of {@link OwnTemporaries} a file being written is. */
  public static final String KIND = "tmp";

  /** What te-wheel before process-marked names left: {@code .<name><random digits>.tmp}, made by createTempFile. */
  private static final String LEGACY = "\\d+\\.tmp";

  private AtomicFiles() {}

  /** What goes into the file; the stream is closed by {@link #write(Path, Content)}. */
  @FunctionalInterface
  public interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  /** Writes {@code text} as UTF-8 beside {@code target} and renames it into place, replacing what was there. */
  public static void writeString(Path target, String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    write(target, out -> out.write(bytes));
  }

  /** Writes {@code content} to a hidden temporary file beside {@code target}, then renames it into place. */
  public static void write(Path target, Content content) throws IOException {
    Path temp = temporaryBeside(target);
    try {
      try (OutputStream out = Files.newOutputStream(temp)) {
        content.writeTo(out);
      }
      replace(temp, target);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /**
   * A new empty hidden file beside {@code target} ({@code .<name>.tmp-<pid>-<random>}), for a caller that writes it
   * its own way; what killed runs left for this target is removed first.
   */
  public static Path temporaryBeside(Path target) throws IOException {
    Path absolute = target.toAbsolutePath();
    OwnTemporaries.removeLeftovers(absolute, KIND,
        Pattern.compile(Pattern.quote("." + absolute.getFileName()) + LEGACY));
    return OwnTemporaries.createFile(absolute, KIND);
  }

  /**
   * Renames {@code from} to {@code target}, replacing it: atomically where the file system can, else a plain
   * rename (still one rename of a finished file).
   */
  public static void replace(Path from, Path target) throws IOException {
    try {
      Files.move(from, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** Renames {@code from} (a file or a folder) to {@code target}, which must not exist; atomic where possible. */
  public static void rename(Path from, Path target) throws IOException {
    try {
      Files.move(from, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, target);
    }
  }
}
