package dev.tewheel.elf;

/** ELF{32,64}_ST_TYPE of st_info. */
public final class SymbolType extends NumberedConstant {
  private static final NameTable NAMES = NameTable.of(0, "NOTYPE", 1, "OBJECT", 2, "FUNC", 3, "SECTION", 4, "FILE",
      5, "COMMON", 6, "TLS", 10, "GNU_IFUNC");

  public static final SymbolType NOTYPE = new SymbolType(0);
  public static final SymbolType OBJECT = new SymbolType(1);
  public static final SymbolType FUNC = new SymbolType(2);
  public static final SymbolType COMMON = new SymbolType(5);
  public static final SymbolType TLS = new SymbolType(6);
  /** STT_GNU_IFUNC (STT_LOOS): resolved by a function at load time. */
  public static final SymbolType GNU_IFUNC = new SymbolType(10);

  public SymbolType(int value) {
    super(value, NAMES);
  }
}
