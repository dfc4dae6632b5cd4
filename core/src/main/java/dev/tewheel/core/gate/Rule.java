package dev.tewheel.core.gate;

/** What reports need of a rule: its stable ID, a one-line title and its default severity (checks and diff rules). */
public interface Rule {
  String id();

  String title();

  Severity defaultSeverity();

  /** A finding of this rule at its default severity. */
  default Finding finding(String file, String found, String expected, String fix) {
    return new Finding(id(), defaultSeverity(), file, found, expected, fix);
  }
}
