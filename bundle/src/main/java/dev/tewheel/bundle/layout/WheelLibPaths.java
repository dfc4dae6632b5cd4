package dev.tewheel.bundle.layout;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The rules for names and paths inside a wheel_lib, written once: which file names are shared libraries, how a
 * '/'-separated relative path is normalised, and what an {@code $ORIGIN}-relative search-path entry points at.
 */
public final class WheelLibPaths {
  private static final Pattern SHARED_OBJECT_NAME = Pattern.compile("[^/]*\\.so(\\.\\d+)*");

  private WheelLibPaths() {}

  /** Whether a file name (or a path's last part) names a shared library: {@code *.so} or {@code *.so.N[.N…]}. */
  public static boolean isSharedObject(String path) {
    return SHARED_OBJECT_NAME.matcher(path.substring(path.lastIndexOf('/') + 1)).matches();
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
