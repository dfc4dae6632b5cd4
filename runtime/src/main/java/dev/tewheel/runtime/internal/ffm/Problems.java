package dev.tewheel.runtime.internal.ffm;

import java.util.ArrayList;
import java.util.List;

/** The problems a config builder finds, gathered so that {@code build()} refuses once, naming every one. */
public final class Problems {
  private final String struct;
  private final List<String> found = new ArrayList<>();

  public Problems(String struct) {
    this.struct = struct;
  }

  public Problems check(boolean ok, String problem) {
    if (!ok) {
      found.add(problem);
    }
    return this;
  }

  public Problems positive(String field, long value) {
    return check(value > 0, field + " must be greater than 0, got " + value);
  }

  public Problems notNegative(String field, long value) {
    return check(value >= 0, field + " must not be negative, got " + value);
  }

  public Problems required(String field, Object value) {
    return check(value != null, field + " is required");
  }

  /** The one rule for a per-expert alignment in tokens, NCCL EP's and TE's: 0, 1 or a power of two. */
  public Problems alignment(String field, long tokens) {
    return check(tokens >= 0 && Long.bitCount(tokens) <= 1, field + " must be 0, 1 or a power of two, got " + tokens);
  }

  /** @throws IllegalArgumentException {@code <struct>: <problem>; <problem>…} when any was found */
  public void throwIfAny() {
    if (!found.isEmpty()) {
      throw new IllegalArgumentException(struct + ": " + String.join("; ", found));
    }
  }
}
