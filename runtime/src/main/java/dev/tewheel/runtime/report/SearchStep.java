package dev.tewheel.runtime.report;

/** One step of the bundle search, as diagnostics show it. te-runtime makes it; an application reads it.
 *
 * @param source where te-runtime looked, e.g. {@code system property te.wheelLib}.
 * @param value what it found there (a path, a resource name), or null when nothing was set.
 * @param outcome what came of it.
 * @param detail why, or what was used, for people; empty when the outcome says all.
 */
public record SearchStep(String source, String value, Outcome outcome, String detail) {
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
    String word = outcome().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
    String detail = detail();
    return switch (outcome()) {
      case NOT_SET, NOT_TRIED -> word;
      case USED -> detail.isEmpty() ? word : word + ": " + detail;
      case PASSED -> detail.isEmpty() ? word : detail + "; " + word;
      case REFUSED -> detail.isEmpty() ? word : detail;
    };
  }
}
