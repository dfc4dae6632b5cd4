package dev.tewheel.core.gate;

import java.util.Objects;

/**
 * What one rule found wrong with one file: enough for a person to fix it without reading code.
 *
 * @param checkId the stable ID of the rule, e.g. TE-BIND-NOW
 * @param severity after any override
 * @param file the file concerned: a path on disk, or {@code x.whl!path} inside a wheel
 * @param line the line of the file the finding is about (1 is the first), or null for the whole file
 * @param found what the file holds
 * @param expected what it should hold
 * @param fix the likely fix
 */
public record Finding(String checkId, Severity severity, String file, Integer line, String found, String expected,
    String fix) {
  public Finding {
    Objects.requireNonNull(checkId, "checkId");
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(found, "found");
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(fix, "fix");
    if (line != null && line < 1) {
      throw new IllegalArgumentException("line " + line + " of " + file + " is not a line number (1 is the first)");
    }
  }

  /** A finding about a whole file. */
  public Finding(String checkId, Severity severity, String file, String found, String expected, String fix) {
    this(checkId, severity, file, null, found, expected, fix);
  }

  public Finding withSeverity(Severity other) {
    return new Finding(checkId, other, file, line, found, expected, fix);
  }

  /** The same finding about line {@code number} of its file. */
  public Finding atLine(int number) {
    return new Finding(checkId, severity, file, number, found, expected, fix);
  }

  /** The same finding named by another file. */
  public Finding inFile(String other) {
    return new Finding(checkId, severity, other, line, found, expected, fix);
  }

  /** {@code file} or {@code file:line}, as people and compilers write a place. */
  public String location() {
    return line == null ? file : file + ":" + line;
  }

  /** What is wrong and how to fix it, without the place: {@code found …; expected …. Fix: …}. */
  public String text() {
    return "found " + found + "; expected " + expected + ". Fix: " + fix;
  }

  /** One paragraph: {@code [ERROR TE-BIND-NOW] file: found …; expected …. Fix: …} */
  public String message() {
    return "[" + severity + " " + checkId + "] " + location() + ": " + text();
  }

  @Override
  public String toString() {
    return message();
  }
}
