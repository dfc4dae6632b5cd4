package dev.tewheel.core.check;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import java.util.ArrayList;
import java.util.List;

/**
 * A check of the subject as a whole (its files, or its libraries taken together): {@link #check} adds every problem
 * to one list, as the per-library bases do.
 */
public abstract class SubjectCheck extends BaseCheck {
  protected SubjectCheck(String id, String title, Severity defaultSeverity) {
    super(id, title, defaultSeverity);
  }

  @Override
  public final List<Finding> run(Subject subject) {
    List<Finding> findings = new ArrayList<>();
    check(subject, findings);
    return findings;
  }

  /** Adds what is wrong with the subject. */
  protected abstract void check(Subject subject, List<Finding> findings);
}
