package dev.tewheel.elf;

import java.util.Objects;

/**
 * A numbered ELF constant (e_machine, EI_OSABI, e_type, p_type, a symbol's binding and type): equal by its number, printed
 * by the name its table gives, any number without a name as the number, so every file still reads.
 */
public abstract class NumberedConstant {
  private final int value;
  private final NameTable names;

  /** @param names the subclass's table, declared before its constants so that it exists when they are made */
  NumberedConstant(int value, NameTable names) {
    this.value = value;
    // Looked up when printed, not here: the parser makes two of these for each of thousands of symbols.
    this.names = Objects.requireNonNull(names, "names");
  }

  /** The number as the file has it. */
  public final int value() {
    return value;
  }

  /** The name, e.g. "x86_64" or "FUNC", or {@link #unnamed} for a value without a name. */
  public final String name() {
    String name = names.name(value);
    return name != null ? name : unnamed(value);
  }

  /** How a value without a name prints: in decimal (p_type: in hex, as readelf prints it). */
  String unnamed(int value) {
    return Integer.toString(value);
  }

  @Override
  public final String toString() {
    return name();
  }

  // Written out, as records would generate them lazily through ObjectMethods: milliseconds of a cold start.
  @Override
  public final boolean equals(Object other) {
    return other != null && other.getClass() == getClass() && ((NumberedConstant) other).value == value;
  }

  @Override
  public final int hashCode() {
    return value;
  }
}
