package dev.tewheel.core.check;

import dev.tewheel.core.gate.BaseRule;
import dev.tewheel.core.gate.Severity;

/** A check: its ID, title and default severity given once to the constructor; a check writes only {@link #run}. */
public abstract class BaseCheck extends BaseRule implements Check {
  protected BaseCheck(String id, String title, Severity defaultSeverity) {
    super(id, title, defaultSeverity);
  }
}
