package dev.tewheel.elf;

import java.util.Map;

/** Name tables for the numbered ELF constants: a known value prints by name, any other by number. */
final class Names {
  private Names() {}

  static String of(Map<Integer, String> table, int value) {
    String name = table.get(value);
    return name != null ? name : Integer.toString(value);
  }
}
