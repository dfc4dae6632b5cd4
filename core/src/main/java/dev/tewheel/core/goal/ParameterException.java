package dev.tewheel.core.goal;

import java.util.List;

/**
 * A parameter whose value cannot be used: what the goal reports as a configuration error and the command as a usage
 * error (exit 2), each naming the parameter its own way ({@code te.failOn} or {@code --fail-on}), before anything is
 * read or written.
 */
public final class ParameterException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final transient Parameter parameter;
  private final String value;
  private final String reason;

  private ParameterException(Parameter parameter, String value, String reason, Throwable cause) {
    super(parameter.property() + (value == null ? " " : " = " + value + ": ") + reason, cause);
    this.parameter = parameter;
    this.value = value;
    this.reason = reason;
  }

  /** The value given is wrong: {@code reason} says what was expected. */
  static ParameterException of(Parameter parameter, Object value, String reason, Throwable cause) {
    return new ParameterException(parameter, echo(value), reason, cause);
  }

  /** A required parameter is missing. */
  static ParameterException missing(Parameter parameter) {
    return new ParameterException(parameter, null, "is required", null);
  }

  /** A sentence about the parameter that names its value itself, e.g. "must be 0 to 9, got 11". */
  static ParameterException statement(Parameter parameter, String predicate, Throwable cause) {
    return new ParameterException(parameter, null, predicate, cause);
  }

  public Parameter parameter() {
    return parameter;
  }

  /**
   * The message with the parameter named as the caller's users type it, e.g. {@code te.failOn = 'fatal': severity
   * 'fatal' is none of error, warning, info} or {@code --fail-on 'fatal': ...}.
   *
   * @param name te.failOn, --fail-on
   * @param separator between the name and the echoed value: " = " for a property, " " for an option
   */
  public String describe(String name, String separator) {
    return value == null ? name + " " + reason : name + separator + value + ": " + reason;
  }

  /** The value as messages show it: 'text', ['a', 'b'], or (unset). */
  static String echo(Object value) {
    if (value instanceof List<?> list) {
      return list.stream().map(v -> "'" + v + "'").toList().toString();
    }
    return value == null ? "(unset)" : "'" + value + "'";
  }
}
