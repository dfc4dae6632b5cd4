package dev.tewheel.core.goal;

import dev.tewheel.core.gate.Finding;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The findings printed so far in one build, each with the goal that printed it first: assemble, verify and pack of one
 * project judge the same libraries, and a finding one goal printed is referred to by the next, not printed again. The
 * plugin keeps one per Maven project (its context values); each goal asks {@link #earlier} for the table.
 */
public final class PrintedFindings {
  private final Map<String, String> printed = new ConcurrentHashMap<>();

  /**
   * Records that {@code goal} prints {@code finding} and says which earlier goal printed it first, or null when none
   * did (or {@code goal} itself did: a goal prints its own findings again).
   */
  public String earlier(Finding finding, String goal) {
    String first = printed.putIfAbsent(key(finding), goal);
    return first != null && !first.equals(goal) ? first : null;
  }

  /** A finding as the same in any goal: its rule, file name, line and text (goals name the folder differently). */
  private static String key(Finding finding) {
    String file = finding.file();
    return finding.checkId() + "\0" + file.substring(Math.max(file.lastIndexOf('/'), file.lastIndexOf('!')) + 1)
        + "\0" + finding.line() + "\0" + finding.text();
  }
}
