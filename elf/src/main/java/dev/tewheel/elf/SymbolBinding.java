package dev.tewheel.elf;

/** ELF{32,64}_ST_BIND of st_info. */
public final class SymbolBinding extends NumberedConstant {
  private static final NameTable NAMES = NameTable.of(0, "LOCAL", 1, "GLOBAL", 2, "WEAK", 10, "GNU_UNIQUE");

  public static final SymbolBinding LOCAL = new SymbolBinding(0);
  public static final SymbolBinding GLOBAL = new SymbolBinding(1);
  public static final SymbolBinding WEAK = new SymbolBinding(2);
  /** STB_GNU_UNIQUE (STB_LOOS): one instance per process, e.g. some C++ template statics. */
  public static final SymbolBinding GNU_UNIQUE = new SymbolBinding(10);

  /** Whether a defined symbol of this binding is visible to other objects (GLOBAL, WEAK, GNU_UNIQUE). */
  public boolean isExported() {
    return equals(GLOBAL) || equals(WEAK) || equals(GNU_UNIQUE);
  }

  public SymbolBinding(int value) {
    super(value, NAMES);
  }
}
