package dev.tewheel.core.gate;

import java.util.Objects;

/**
 * What every rule has besides its logic: a stable ID, a one-line title and a default severity, given once to the
 * constructor. Checks ({@code BaseCheck}) and diff rules ({@code DiffRule}) extend it.
 */
public abstract class BaseRule implements Rule {
  private final String id;
  private final String title;
  private final Severity defaultSeverity;

  protected BaseRule(String id, String title, Severity defaultSeverity) {
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
