package dev.tewheel.runtime;

import java.util.Optional;

/**
 * What te-runtime did to one environment variable through libc's {@code setenv} with overwrite 0, so that a
 * user's own value always wins. Read such values with libc's {@code getenv} (or from native code):
 * {@link System#getenv} copies the environment the first time it is called and never reads it again, so it does not
 * see them. te-runtime makes it; an application reads it. Its {@code toString()} is the reports' line, e.g.
 * {@code NCCL_EP_HOME=/x (set by te-runtime)}.
 */
public sealed interface EnvironmentSetting permits EnvironmentSettingRecord {
  /** The variable, e.g. {@code NCCL_EP_HOME}. */
  String name();

  /** The value in effect afterwards. */
  String value();

  /** Whether te-runtime set it (true) or found it already set (false). */
  boolean setByRuntime();

  /** What te-runtime would set. */
  String proposed();

  /** The value the user had set, when te-runtime left it alone. */
  default Optional<String> userValue() {
    return setByRuntime() ? Optional.empty() : Optional.of(value());
  }
}
