package dev.tewheel.elf;

import java.util.Map;

/** ELF{32,64}_ST_TYPE of st_info. */
public record SymbolType(int value) {
  public static final SymbolType NOTYPE = new SymbolType(0);
  public static final SymbolType OBJECT = new SymbolType(1);
  public static final SymbolType FUNC = new SymbolType(2);
  public static final SymbolType SECTION = new SymbolType(3);
  public static final SymbolType FILE = new SymbolType(4);
  public static final SymbolType COMMON = new SymbolType(5);
  public static final SymbolType TLS = new SymbolType(6);
  /** STT_GNU_IFUNC (STT_LOOS): resolved by a function at load time. */
  public static final SymbolType GNU_IFUNC = new SymbolType(10);

  private static final Map<Integer, String> NAMES = Map.of(
      0, "NOTYPE", 1, "OBJECT", 2, "FUNC", 3, "SECTION", 4, "FILE", 5, "COMMON", 6, "TLS", 10, "GNU_IFUNC");

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
    return other instanceof SymbolType that && that.value == value;
  }

  @Override
  public int hashCode() {
    return value;
  }
}
