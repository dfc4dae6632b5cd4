package dev.tewheel.bundle.io;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The temporary files and folders te-wheel makes beside a target, named {@code .<target>.<kind>-<pid>-<16 hex>}:
 * the kind says what it is (a file being written, a tree being staged, a wheel being packed), the process id who
 * writes it, the random part makes the name unguessable. A kill -9 runs no cleanup, so the next run removes what a
 * dead process left ({@link #removeLeftovers}): only names of this form for that target, and never one whose
 * process still runs (a concurrent build's work).
 *
 * <p>Files are created with {@code CREATE_NEW} and the default attributes, so the system applies the umask as for
 * any tool's output (0644 under umask 022), and a name another user planted, even as a symlink, is never opened.
 */
public final class OwnTemporaries {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final long PID = ProcessHandle.current().pid();

  private OwnTemporaries() {}

  /** A new name for a temporary of {@code kind} beside {@code target}; nothing is created. */
  public static Path name(Path target, String kind) {
    byte[] random = new byte[8];
    RANDOM.nextBytes(random);
    Path absolute = target.toAbsolutePath();
    return absolute.resolveSibling("." + absolute.getFileName() + "." + kind + "-" + PID + "-"
        + HexFormat.of().formatHex(random));
  }

  /** A new empty file (mode 0666 less the umask) beside {@code target}. */
  public static Path createFile(Path target, String kind) throws IOException {
    Path file = name(target, kind);
    Files.newByteChannel(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close();
    return file;
  }

  /** A new empty folder (mode 0777 less the umask) beside {@code target}. */
  public static Path createFolder(Path target, String kind) throws IOException {
    return Files.createDirectory(name(target, kind));
  }

  /**
   * The temporaries of {@code kind} beside {@code target} that no running process owns: those of a dead process,
   * and, when {@code legacy} is given, names an older te-wheel made without a process id. Oldest name order.
   */
  public static List<Path> leftovers(Path target, String kind, Pattern legacy) throws IOException {
    Path absolute = target.toAbsolutePath();
    Path parent = absolute.getParent();
    if (parent == null || !Files.isDirectory(parent)) {
      return List.of();
    }
    String prefix = "." + absolute.getFileName() + "." + kind + "-";
    Pattern own = Pattern.compile(Pattern.quote(prefix) + "(\\d{1,19})-[0-9a-f]{16}");
    List<Path> found = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(parent)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        Matcher matcher = own.matcher(name);
        if (matcher.matches() ? !running(matcher.group(1)) : legacy != null && legacy.matcher(name).matches()) {
          found.add(entry);
        }
      }
    }
    found.sort(Comparator.naturalOrder());
    return found;
  }

  private static boolean running(String pid) {
    try {
      long id = Long.parseLong(pid);
      return id == PID || ProcessHandle.of(id).map(ProcessHandle::isAlive).orElse(false);
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** Removes the {@link #leftovers} of {@code kind}; returns what it removed. */
  public static List<Path> removeLeftovers(Path target, String kind, Pattern legacy) throws IOException {
    List<Path> removed = leftovers(target, kind, legacy);
    for (Path leftover : removed) {
      delete(leftover);
    }
    return removed;
  }

  /** Deletes a file, or a folder with everything in it; symlinks are removed, never followed. */
  public static void delete(Path path) throws IOException {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return;
    }
    if (attributes.isDirectory()) {
      try (Stream<Path> walk = Files.walk(path)) { // does not follow links
        for (Path inside : walk.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(inside);
        }
      }
    } else {
      Files.deleteIfExists(path);
    }
  }
}
