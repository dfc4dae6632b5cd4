package dev.tewheel.core.check;

/** What reports need of a rule: its stable ID, a one-line title and its default severity (checks and diff rules). */
public interface Rule {
  String id();

  String title();

  Severity defaultSeverity();
}
