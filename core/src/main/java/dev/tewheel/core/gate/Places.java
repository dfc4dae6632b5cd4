package dev.tewheel.core.gate;

import java.nio.file.Path;

/**
 * How reports name a finding's file for people and CI: relative to the project's folder when it lies below it
 * (the form GitHub annotations and SARIF need to point into the repository), else as the finding has it.
 */
final class Places {
  private final String prefix;

  /** @param base the project's folder, or null to keep every file as given */
  Places(Path base) {
    this.prefix = base == null ? null : base.toAbsolutePath().normalize().toString() + "/";
  }

  String file(Finding finding) {
    return relative(finding) ? finding.file().substring(prefix.length()) : finding.file();
  }

  /** Whether {@link #file} names the finding's file relative to the project's folder. */
  boolean relative(Finding finding) {
    String file = finding.file();
    return prefix != null && file.startsWith(prefix) && file.length() > prefix.length();
  }

  /** The project's folder, absolute and ending in '/'; null when there is none. */
  String base() {
    return prefix;
  }

  /** {@code file} or {@code file:line}. */
  String location(Finding finding) {
    return finding.line() == null ? file(finding) : file(finding) + ":" + finding.line();
  }
}
