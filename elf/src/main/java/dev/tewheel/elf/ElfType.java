package dev.tewheel.elf;

import java.util.Map;

/** e_type: relocatable, executable, shared object, core, or an OS- or processor-specific number. */
public record ElfType(int value) {
  public static final ElfType NONE = new ElfType(0);
  public static final ElfType REL = new ElfType(1);
  public static final ElfType EXEC = new ElfType(2);
  public static final ElfType DYN = new ElfType(3);
  public static final ElfType CORE = new ElfType(4);

  private static final Map<Integer, String> NAMES =
      Map.of(0, "NONE", 1, "REL", 2, "EXEC", 3, "DYN", 4, "CORE");

  /** "DYN", "EXEC", "REL", "CORE", "NONE", or the number in decimal. */
  public String name() {
    return Names.of(NAMES, value);
  }

  @Override
  public String toString() {
    return name();
  }

  // Written out: the generated ones bootstrap through ObjectMethods on first use, milliseconds of a cold start.
  @Override
  public boolean equals(Object other) {
    return other instanceof ElfType that && that.value == value;
  }

  @Override
  public int hashCode() {
    return value;
  }
}
