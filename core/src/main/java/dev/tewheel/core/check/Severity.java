package dev.tewheel.core.check;

/** How much a finding matters; a finding at or above the configured level fails the goal. */
public enum Severity {
  INFO,
  WARNING,
  ERROR;

  public boolean atLeast(Severity other) {
    return compareTo(other) >= 0;
  }
}
