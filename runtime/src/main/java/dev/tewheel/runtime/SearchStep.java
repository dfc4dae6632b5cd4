package dev.tewheel.runtime;

import java.util.Objects;

/**
 * One step of the bundle search, as diagnostics show it.
 *
 * @param source where te-runtime looked, e.g. {@code system property te.wheelLib}
 * @param value what it found there (a path, a resource name), or null when nothing was set
 * @param outcome what came of it: {@code not set}, {@code used}, {@code not tried}, or why it was not used
 */
public record SearchStep(String source, String value, String outcome) {
  public SearchStep {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(outcome, "outcome");
  }
}
