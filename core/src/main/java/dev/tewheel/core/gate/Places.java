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
    String file = finding.file();
    return prefix != null && file.startsWith(prefix) && file.length() > prefix.length()
        ? file.substring(prefix.length()) : file;
  }

  /** {@code file} or {@code file:line}. */
  String location(Finding finding) {
    return finding.line() == null ? file(finding) : file(finding) + ":" + finding.line();
  }
}
