package dev.tewheel.elf;

import java.util.HashMap;
import java.util.Map;

/**
 * The names of one kind of {@link NumberedConstant}, in one form for every kind (Map.of stops at ten pairs): each
 * number once, checked when the class loads. NameTableTest holds each declared constant to its name here.
 */
final class NameTable {
  private final Map<Integer, String> names;

  private NameTable(Map<Integer, String> names) {
    this.names = Map.copyOf(names);
  }

  /**
   * @param numberThenName pairs, each a number (an {@code Integer}) then its name, e.g. {@code 62, "x86_64"}
   * @throws IllegalArgumentException when a pair is malformed or a number stands twice
   */
  static NameTable of(Object... numberThenName) {
    if (numberThenName.length % 2 != 0) {
      throw new IllegalArgumentException("a name table takes number, name pairs; got " + numberThenName.length
          + " values");
    }
    Map<Integer, String> names = new HashMap<>();
    for (int i = 0; i < numberThenName.length; i += 2) {
      if (!(numberThenName[i] instanceof Integer number) || !(numberThenName[i + 1] instanceof String name)) {
        throw new IllegalArgumentException("a name table takes number, name pairs; got " + numberThenName[i] + ", "
            + numberThenName[i + 1]);
      }
      if (names.put(number, name) != null) {
        throw new IllegalArgumentException("a name table names " + number + " twice");
      }
    }
    return new NameTable(names);
  }

  /** The name of a number, or null when the table has none. */
  String name(int number) {
    return names.get(number);
  }
}
