package dev.tewheel.core.gate;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A finding the release engineer accepts, with the reason that is printed each time it applies.
 *
 * @param checkId the check's ID
 * @param file when not null, only findings whose file contains this text
 * @param line when not null, only findings on this line of the file (a finding's own line)
 * @param reason why it is accepted (required)
 */
public record Suppression(String checkId, String file, Integer line, String reason) {
  /** ID, then optionally @file and :line, then the colon before the reason; the file is as short as can be. */
  private static final Pattern FORM = Pattern.compile("([^@:]+?)\\s*(?:@(.+?)(?::(\\d+))?)?\\s*:(.*)", Pattern.DOTALL);

  public Suppression {
    Objects.requireNonNull(checkId, "checkId");
    if (reason == null || reason.isBlank()) {
      throw new IllegalArgumentException("the suppression of " + checkId + " has no reason: every suppression must"
          + " say why the finding is accepted, and the report prints it");
    }
  }

  public Suppression(String checkId, String file, String reason) {
    this(checkId, file, null, reason);
  }

  /**
   * Parses {@code ID[@file[:line]]: reason}, e.g. {@code BAKED-BUILD-PATHS@config.h:2: te-runtime sets NCCL_EP_HOME}.
   *
   * @throws IllegalArgumentException naming the expected form
   */
  public static Suppression parse(String text) {
    Matcher m = FORM.matcher(text.trim());
    if (!m.matches() || m.group(1).isBlank()) {
      throw new IllegalArgumentException("suppression '" + text + "' is not of the form ID[@file[:line]]: reason");
    }
    String file = m.group(2) == null ? null : m.group(2).trim();
    Integer line = m.group(3) == null ? null : parseLine(text, m.group(3));
    return new Suppression(m.group(1).trim(), file == null || file.isEmpty() ? null : file, line, m.group(4).trim());
  }

  private static Integer parseLine(String text, String digits) {
    try {
      return Integer.valueOf(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("suppression '" + text + "': line " + digits + " is not a line number");
    }
  }

  /** Parses each entry with {@link #parse}; null is none. */
  public static List<Suppression> parseAll(List<String> entries) {
    return (entries == null ? List.<String>of() : entries).stream().map(Suppression::parse).toList();
  }

  /** What it matches, as users write it: {@code ID[@file[:line]]}. */
  public String pattern() {
    return checkId + (file == null ? "" : "@" + file) + (line == null ? "" : ":" + line);
  }

  /** As users write it, reason included. */
  @Override
  public String toString() {
    return pattern() + ": " + reason;
  }

  /**
   * Whether this suppression accepts the finding: same ID, the file contains the given text if any, and the finding
   * is on the given line if any.
   */
  public boolean matches(Finding finding) {
    return finding.checkId().equals(checkId) && (line == null || line.equals(finding.line()))
        && (file == null || finding.file().contains(file));
  }

  /**
   * The findings split by the suppressions, the first matching one accepting each; every gate (verify, pack, diff)
   * applies them here.
   *
   * @param active the findings no suppression accepts
   * @param suppressed the accepted ones with their reasons
   * @param unmatched the suppressions that accepted nothing: stale, or misspelled
   */
  public record Applied(List<Finding> active, List<GateReport.SuppressedFinding> suppressed,
      List<Suppression> unmatched) {}

  /** Applies {@code suppressions} to {@code findings}. */
  public static Applied apply(List<Suppression> suppressions, List<Finding> findings) {
    List<Finding> active = new ArrayList<>();
    List<GateReport.SuppressedFinding> suppressed = new ArrayList<>();
    Set<Suppression> used = new LinkedHashSet<>();
    for (Finding finding : findings) {
      Suppression match = suppressions.stream().filter(s -> s.matches(finding)).findFirst().orElse(null);
      if (match == null) {
        active.add(finding);
      } else {
        used.add(match);
        suppressed.add(new GateReport.SuppressedFinding(finding, match.reason()));
      }
    }
    return new Applied(active, suppressed, suppressions.stream().filter(s -> !used.contains(s)).toList());
  }
}
