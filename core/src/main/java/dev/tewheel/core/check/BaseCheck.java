package dev.tewheel.core.check;

import dev.tewheel.core.gate.Severity;
import java.util.Objects;

/**
 * What every check has besides its rule: a stable ID, a one-line title and a default severity, given once to the
 * constructor. A check extends this and writes only {@link #run}.
 */
public abstract class BaseCheck implements Check {
  private final String id;
  private final String title;
  private final Severity defaultSeverity;

  protected BaseCheck(String id, String title, Severity defaultSeverity) {
    this.id = Objects.requireNonNull(id, "id");
    this.title = Objects.requireNonNull(title, "title");
    this.defaultSeverity = Objects.requireNonNull(defaultSeverity, "defaultSeverity");
  }

  @Override
  public final String id() {
    return id;
  }

  @Override
  public final String title() {
    return title;
  }

  @Override
  public final Severity defaultSeverity() {
    return defaultSeverity;
  }

  @Override
  public String toString() {
    return id;
  }
}
