package dev.tewheel.runtime;

import java.util.Objects;

/**
 * One step of the bundle search, as diagnostics show it.
 *
 * <p>{@code source()}: where te-runtime looked, e.g. {@code system property te.wheelLib}
 * <p>{@code value()}: what it found there (a path, a resource name), or null when nothing was set
 * <p>{@code outcome()}: what came of it
 * <p>{@code detail()}: why, or what was used, for people; empty when the outcome says all
 */
public final class SearchStep {
  private final String source;
  private final String value;
  private final Outcome outcome;
  private final String detail;

  /** Made by te-runtime only (its report is the contract, not this constructor). */
  SearchStep(String source, String value, Outcome outcome, String detail) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(detail, "detail");
    this.source = source;
    this.value = value;
    this.outcome = outcome;
    this.detail = detail;
  }

  public String source() {
    return source;
  }

  public String value() {
    return value;
  }

  public Outcome outcome() {
    return outcome;
  }

  public String detail() {
    return detail;
  }

  /** What came of a step. */
  public enum Outcome {
    /** Nothing was set there. */
    NOT_SET,
    /** The search settled here. */
    USED,
    /** Looked, found nothing to use, and went on. */
    PASSED,
    /** A value was there but refused; the search stopped. */
    REFUSED,
    /** An earlier step decided, so this one was not looked at. */
    NOT_TRIED
  }

  /** The outcome for people: {@code not set}, {@code used: extracted now}, {@code no … in …; passed}, … */
  public String describe() {
    String word = outcome.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
    return switch (outcome) {
      case NOT_SET, NOT_TRIED -> word;
      case USED -> detail.isEmpty() ? word : word + ": " + detail;
      case PASSED -> detail.isEmpty() ? word : detail + "; " + word;
      case REFUSED -> detail.isEmpty() ? word : detail;
    };
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof SearchStep o && Objects.equals(source, o.source)
        && Objects.equals(value, o.value)
        && Objects.equals(outcome, o.outcome)
        && Objects.equals(detail, o.detail);
  }

  @Override
  public int hashCode() {
    return Objects.hash(source, value, outcome, detail);
  }

  @Override
  public String toString() {
    return "SearchStep[source=" + source
        + ", value=" + value
        + ", outcome=" + outcome
        + ", detail=" + detail
        + "]";
  }
}
