package dev.tewheel.elf;

/** ELF{32,64}_ST_VISIBILITY of st_other: two bits, so every value has a name. */
public enum SymbolVisibility {
  DEFAULT,
  INTERNAL,
  HIDDEN,
  PROTECTED;

  static SymbolVisibility of(int other) {
    return values()[other & 3];
  }
}
