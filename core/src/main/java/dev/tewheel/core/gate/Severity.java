package dev.tewheel.core.gate;

/** How much a finding matters; a finding at or above the configured level fails the goal. */
public enum Severity {
  INFO,
  WARNING,
  ERROR;

  /** The lowest severity that fails a goal when none is configured, as its parameter value. */
  public static final String DEFAULT_FAIL_ON = "error";

  /** "error", "warning" or "info", any case. */
  public static Severity parse(String text) {
    for (Severity severity : values()) {
      if (severity.name().equalsIgnoreCase(text.trim())) {
        return severity;
      }
    }
    throw new IllegalArgumentException("severity '" + text + "' is none of error, warning, info");
  }

  /** Parses {@code ID=severity} entries into overrides. */
  public static java.util.Map<String, Severity> overrides(java.util.List<String> entries) {
    java.util.Map<String, Severity> overrides = new java.util.LinkedHashMap<>();
    for (String entry : entries == null ? java.util.List.<String>of() : entries) {
      int eq = entry.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("severity override '" + entry + "' is not of the form ID=error|warning|info");
      }
      overrides.put(entry.substring(0, eq).trim(), parse(entry.substring(eq + 1)));
    }
    return overrides;
  }

  public boolean atLeast(Severity other) {
    return compareTo(other) >= 0;
  }
}
