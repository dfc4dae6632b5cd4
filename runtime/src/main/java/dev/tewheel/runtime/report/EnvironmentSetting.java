package dev.tewheel.runtime.report;

import java.util.Optional;

/**
 * What te-runtime did to one environment variable through libc's {@code setenv} with overwrite 0, so that a
 * user's own value always wins. Read such values with libc's {@code getenv} (or from native code):
 * {@link System#getenv} copies the environment the first time it is called and never reads it again, so it does not
 * see them. te-runtime makes it; an application reads it. Its {@code toString()} is the reports' line, e.g.
 * {@code NCCL_EP_HOME=/x (set by te-runtime)}.
 *
 * @param name the variable, e.g. {@code NCCL_EP_HOME}.
 * @param value the value in effect afterwards.
 * @param setByRuntime whether te-runtime set it (true) or found it already set (false).
 * @param proposed what te-runtime would set.
 */
public record EnvironmentSetting(String name, String value, boolean setByRuntime, String proposed) {
  @Override
  public String toString() {
    return setByRuntime ? name + "=" + value + " (set by te-runtime)"
        : name + "=" + value + " (already set" + (value.equals(proposed) ? "" : "; te-runtime would have set "
            + proposed) + ")";
  }

  /** The value the user had set, when te-runtime left it alone. */
  public Optional<String> userValue() {
    return setByRuntime() ? Optional.empty() : Optional.of(value());
  }
}
