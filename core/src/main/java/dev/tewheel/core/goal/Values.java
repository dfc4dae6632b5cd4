package dev.tewheel.core.goal;

import java.io.File;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The values a goal or command was given, as the user wrote them: text for a one-value parameter, a list for the
 * others. The goal fills it from its fields, the command from its options; {@link Configuration} parses both alike.
 * An unset parameter has no value; its default is {@link Parameter#defaultValue()}, which the goal's annotation
 * and {@link Configuration} apply alike.
 */
public final class Values {
  private final Map<Parameter, Object> given = new LinkedHashMap<>();

  /**
   * Sets a parameter; null leaves it unset. A one-value parameter takes a String, a File, a number or a boolean
   * (each as its text); a list parameter takes a collection of them.
   *
   * @throws IllegalArgumentException for a list given to a one-value parameter or the other way round
   */
  public Values set(Parameter parameter, Object value) {
    if (value == null) {
      given.remove(parameter);
      return this;
    }
    if (parameter.list() != value instanceof Collection<?>) {
      throw new IllegalArgumentException(parameter.name() + (parameter.list() ? " takes a list, not " + value
          : " takes one value, not the list " + value));
    }
    if (value instanceof Collection<?> values) {
      List<String> texts = new ArrayList<>();
      values.forEach(v -> texts.add(text(v)));
      given.put(parameter, List.copyOf(texts));
    } else {
      given.put(parameter, text(value));
    }
    return this;
  }

  private static String text(Object value) {
    return value instanceof File file ? file.getPath() : String.valueOf(value);
  }

  /** The text of a one-value parameter; null when unset. */
  public String text(Parameter parameter) {
    Object value = given.get(parameter);
    return value instanceof String text ? text : null;
  }

  /** The values of a list parameter; empty when unset. */
  @SuppressWarnings("unchecked")
  public List<String> list(Parameter parameter) {
    Object value = given.get(parameter);
    return value instanceof List<?> list ? (List<String>) list : List.of();
  }

  /** Whether the parameter was given (a list, even an empty one). */
  public boolean isSet(Parameter parameter) {
    return given.containsKey(parameter);
  }

  /** The value as given, for messages: a String, a List or null. */
  Object raw(Parameter parameter) {
    return given.get(parameter);
  }
}
