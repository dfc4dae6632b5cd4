package dev.tewheel.core.gate;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * How reports name a finding's file for people and CI: with its {@code .} and {@code ..} segments resolved, and
 * relative to the project's folder when it then lies below it (the form GitHub annotations and SARIF need to point
 * into the repository), else absolute as the finding has it. Resolving first is what keeps {@code <project>/../lib/x}
 * from passing for a file of the project as {@code ../lib/x}.
 */
final class Places {
  private static final String WHEEL_ENTRY = ".whl!";

  private final String prefix;

  /** @param base the project's folder, or null to keep every file as given */
  Places(Path base) {
    this.prefix = base == null ? null : base.toAbsolutePath().normalize().toString() + "/";
  }

  String file(Finding finding) {
    String file = normal(finding.file());
    return isBelow(file) ? file.substring(prefix.length()) : file;
  }

  /** Whether {@link #file} names the finding's file relative to the project's folder. */
  boolean relative(Finding finding) {
    return isBelow(normal(finding.file()));
  }

  /** The project's folder, absolute and ending in '/'; null when there is none. */
  String base() {
    return prefix;
  }

  /** {@code file} or {@code file:line}. */
  String location(Finding finding) {
    return finding.line() == null ? file(finding) : file(finding) + ":" + finding.line();
  }

  private boolean isBelow(String file) {
    return prefix != null && file.startsWith(prefix) && file.length() > prefix.length();
  }

  /**
   * The file with its segments resolved lexically; for an entry of a wheel ({@code x.whl!entry}) the wheel's path
   * only, the entry being named as the archive spells it. A name no path can hold is kept as it is.
   */
  static String normal(String file) {
    int bang = file.indexOf(WHEEL_ENTRY);
    int end = bang < 0 ? file.length() : bang + WHEEL_ENTRY.length() - 1;
    try {
      return Path.of(file.substring(0, end)).normalize() + file.substring(end);
    } catch (InvalidPathException e) {
      return file;
    }
  }
}
