package dev.tewheel.core.check;

import java.util.Objects;

/**
 * What one check found wrong with one file: enough for a person to fix it without reading code.
 *
 * @param checkId the stable ID of the check, e.g. TE-BIND-NOW
 * @param severity after any override
 * @param file the file concerned: a path on disk, or {@code x.whl!path} inside a wheel
 * @param found what the file holds
 * @param expected what it should hold
 * @param fix the likely fix
 */
public record Finding(String checkId, Severity severity, String file, String found, String expected, String fix) {
  public Finding {
    Objects.requireNonNull(checkId, "checkId");
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(found, "found");
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(fix, "fix");
  }

  public Finding withSeverity(Severity other) {
    return new Finding(checkId, other, file, found, expected, fix);
  }

  /** One paragraph: {@code [ERROR TE-BIND-NOW] file: found …; expected …. Fix: …} */
  public String message() {
    return "[" + severity + " " + checkId + "] " + file + ": found " + found + "; expected " + expected + ". Fix: "
        + fix;
  }

  @Override
  public String toString() {
    return message();
  }
}
