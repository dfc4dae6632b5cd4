package dev.tewheel.core.check.layout;

import dev.tewheel.core.check.Libraries;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectCheck;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import java.util.List;
import java.util.OptionalInt;

/**
 * Only regular files, none world-writable, libraries executable: a wheel cannot carry symlinks (pip ignores
 * them), device files have no business there, and installers copy the modes they find.
 */
public final class FileTypesCheck extends SubjectCheck {
  public FileTypesCheck() {
    super("LAYOUT-FILE-TYPES",
        "only regular files; none world-writable; .so files executable", Severity.ERROR);
  }

  @Override
  protected void check(Subject subject, List<Finding> findings) {
    List<SubjectFile> libraries = Libraries.of(subject);
    for (SubjectFile file : subject.files()) {
      switch (file.type()) {
        case SYMLINK -> findings.add(finding(file.origin(), "a symbolic link", "a regular file",
            "ship the file it points to under this name (te:assemble-wheel-lib resolves links)"));
        case OTHER -> findings.add(finding(file.origin(), "a special file (device, pipe or socket)",
            "a regular file", "remove it from wheel_lib"));
        case FILE -> {
          OptionalInt mode = file.mode();
          if (mode.isEmpty()) {
            continue;
          }
          if ((mode.getAsInt() & 0002) != 0) {
            findings.add(finding(file.origin(), "mode " + octal(mode.getAsInt()) + " (world-writable)",
                "no write bit for others", "chmod o-w it (te:assemble-wheel-lib writes 0755 and 0644)"));
          }
          if (libraries.contains(file) && (mode.getAsInt() & 0111) == 0) {
            findings.add(finding(file.origin(), "mode " + octal(mode.getAsInt()) + " on a shared library",
                "an executable library (0755)", "chmod 0755 it"));
          }
        }
      }
    }
  }

  private static String octal(int mode) {
    return String.format("0%03o", mode);
  }
}
