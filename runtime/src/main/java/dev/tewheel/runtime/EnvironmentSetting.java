package dev.tewheel.runtime;

import java.util.Objects;
import java.util.Optional;

/**
 * What te-runtime did to one environment variable through libc's {@code setenv} with overwrite 0, so that a
 * user's own value always wins. Read such values with libc's {@code getenv} (or from native code):
 * {@link System#getenv} copies the environment the first time it is called and never reads it again, so it does not
 * see them.
 *
 * <p>{@code name()}: the variable, e.g. {@code NCCL_EP_HOME}
 * <p>{@code value()}: the value in effect afterwards
 * <p>{@code setByRuntime()}: whether te-runtime set it (true) or found it already set (false)
 * <p>{@code proposed()}: what te-runtime would set
 */
public final class EnvironmentSetting {
  private final String name;
  private final String value;
  private final boolean setByRuntime;
  private final String proposed;

  /** Made by te-runtime only (its report is the contract, not this constructor). */
  EnvironmentSetting(String name, String value, boolean setByRuntime, String proposed) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(proposed, "proposed");
    this.name = name;
    this.value = value;
    this.setByRuntime = setByRuntime;
    this.proposed = proposed;
  }

  public String name() {
    return name;
  }

  public String value() {
    return value;
  }

  public boolean setByRuntime() {
    return setByRuntime;
  }

  public String proposed() {
    return proposed;
  }

  /** The value the user had set, when te-runtime left it alone. */
  public Optional<String> userValue() {
    return setByRuntime ? Optional.empty() : Optional.of(value);
  }

  @Override
  public String toString() {
    return setByRuntime ? name + "=" + value + " (set by te-runtime)"
        : name + "=" + value + " (already set" + (value.equals(proposed) ? "" : "; te-runtime would have set "
            + proposed) + ")";
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof EnvironmentSetting o && Objects.equals(name, o.name)
        && Objects.equals(value, o.value)
        && setByRuntime == o.setByRuntime
        && Objects.equals(proposed, o.proposed);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, value, setByRuntime, proposed);
  }
}
