package dev.tewheel.core.gate;

/**
 * One console line of a report and the level to log it at: a finding at its own severity, so an error shows as
 * {@code [ERROR]} in the build log.
 *
 * @param level ERROR, WARNING or INFO
 * @param text the line, control characters already escaped
 * @param finding the finding the line shows, or null for a heading or a suppressed finding
 */
public record LogLine(Severity level, String text, Finding finding) {}
