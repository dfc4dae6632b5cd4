package dev.tewheel.bundle.layout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The rules for names and paths inside a wheel_lib, written once: which file names are shared libraries, which
 * paths stay inside wheel_lib, how a '/'-separated relative path is normalised, what an {@code $ORIGIN}-relative
 * search-path entry points at, which of an object's search-path entries glibc uses, and which files may be opened
 * (regular ones only).
 */
public final class WheelLibPaths {
  private static final Pattern SHARED_OBJECT_NAME = Pattern.compile("[^/]*\\.so(\\.\\d+)*");

  private WheelLibPaths() {}

  /** Whether a file name (or a path's last part) names a shared library: {@code *.so} or {@code *.so.N[.N…]}. */
  public static boolean isSharedObject(String path) {
    return SHARED_OBJECT_NAME.matcher(path.substring(path.lastIndexOf('/') + 1)).matches();
  }

  /**
   * Why {@code path} does not name something inside wheel_lib, or null when it does. Inside means relative and
   * '/'-separated, with no empty, {@code .} or {@code ..} segment, no backslash and no control character: a NUL
   * ends a name early in C and in Python's zipfile (so another file would be meant), a newline forges report lines.
   *
   * @param rootAllowed whether {@code ""} (wheel_lib itself) is accepted
   */
  public static String whyNotInside(String path, boolean rootAllowed) {
    if (path.isEmpty()) {
      return rootAllowed ? null : "it is empty";
    }
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        return String.format("it holds the control character U+%04X", (int) c);
      }
    }
    if (path.startsWith("/")) {
      return "it is absolute";
    }
    if (path.contains("\\")) {
      return "it holds a backslash";
    }
    for (String segment : path.split("/", -1)) {
      if (segment.isEmpty()) {
        return "it has an empty segment";
      }
      if (segment.equals(".") || segment.equals("..")) {
        return "it has a '" + segment + "' segment";
      }
    }
    return null;
  }

  /**
   * {@code path}, when it names something inside wheel_lib ({@link #whyNotInside}).
   *
   * @param what what the path is, for the message, e.g. {@code 'includeRoot'}
   * @throws IllegalArgumentException naming what, the path (control characters escaped) and why
   */
  public static String requireInside(String what, String path, boolean rootAllowed) {
    String why = whyNotInside(path, rootAllowed);
    if (why != null) {
      throw new IllegalArgumentException(what + " " + quoted(path) + " is not a path inside wheel_lib (" + why
          + "); expected a relative '/'-separated path such as nccl_ep/include, without '.', '..' or empty"
          + " segments, backslashes or control characters");
    }
    return path;
  }

  /** {@code text} in single quotes with control characters and backslashes escaped, safe to print on one line. */
  public static String quoted(String text) {
    StringBuilder out = new StringBuilder("'");
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x20 || c == 0x7f || c == '\\') {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('\'').toString();
  }

  /**
   * {@code file} with symbolic links resolved, when what it names is a regular file: the one test before any file of
   * a bundle is opened. Opening a FIFO blocks until a writer comes, and a device or folder is no library, so neither
   * is ever opened; opening the resolved path means a link swapped afterwards changes nothing.
   *
   * @throws IOException naming the file and what it is instead (a FIFO, a folder, a device), or no such file
   */
  public static Path regularFile(Path file) throws IOException {
    Path real = file.toRealPath();
    String kind = kindOf(real);
    if (kind != null) {
      throw new IOException(file + " is " + kind + ", not a regular file: only regular files are opened");
    }
    return real;
  }

  /** Null when {@code file} is a regular file, else what it is ("a FIFO", "a folder", ...); links not followed. */
  public static String kindOf(Path file) throws IOException {
    BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (attributes.isRegularFile()) {
      return null;
    }
    if (attributes.isDirectory()) {
      return "a folder";
    }
    if (attributes.isSymbolicLink()) {
      return "a symbolic link";
    }
    try {
      if (Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS) instanceof Integer mode) {
        return kindOf(mode);
      }
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      // no unix view on this file system: say what is known
    }
    return "a special file";
  }

  /** Null for st_mode {@code mode} of a regular file, else what the file is ("a FIFO", "a folder", ...). */
  public static String kindOf(int mode) {
    return switch (mode & 0170000) {
      case 0100000 -> null;
      case 0040000 -> "a folder";
      case 0120000 -> "a symbolic link";
      case 0010000 -> "a FIFO";
      case 0020000 -> "a character device";
      case 0060000 -> "a block device";
      case 0140000 -> "a socket";
      default -> "a special file";
    };
  }

  /**
   * The file {@code relative} names inside {@code folder}, or null when it would leave the folder (by the one rule,
   * {@link #whyNotInside}; a manifest's paths already obey it when it is read).
   */
  public static Path inside(Path folder, String relative) {
    return whyNotInside(relative, false) == null ? folder.resolve(relative) : null;
  }

  /** Whether two paths name one file: equal once absolute and normalised, or the same file by its key. */
  public static boolean sameFile(Path a, Path b) {
    try {
      return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize()) || Files.isSameFile(a, b);
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * A '/'-separated relative path with empty and {@code .} parts dropped and {@code ..} applied, e.g.
   * {@code a/./b/../c} is {@code a/c}; null when a {@code ..} would leave the root.
   */
  public static String normalize(String path) {
    Deque<String> parts = new ArrayDeque<>();
    for (String part : path.split("/")) {
      if (part.isEmpty() || part.equals(".")) {
        continue;
      }
      if (part.equals("..")) {
        if (parts.isEmpty()) {
          return null;
        }
        parts.removeLast();
      } else {
        parts.addLast(part);
      }
    }
    return String.join("/", parts);
  }

  /**
   * What an RPATH/RUNPATH entry says after {@code $ORIGIN} or {@code ${ORIGIN}} (e.g. {@code /../lib} for
   * {@code $ORIGIN/../lib}); empty when the entry is not {@code $ORIGIN}-relative (an absolute build path).
   */
  public static Optional<String> originRelative(String searchPathEntry) {
    if (searchPathEntry.startsWith("${ORIGIN}")) {
      return Optional.of(searchPathEntry.substring("${ORIGIN}".length()));
    }
    if (searchPathEntry.startsWith("$ORIGIN")) {
      return Optional.of(searchPathEntry.substring("$ORIGIN".length()));
    }
    return Optional.empty();
  }
}
