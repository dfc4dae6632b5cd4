package dev.tewheel.elf;

import java.util.Optional;

/**
 * One entry of the dynamic symbol table (DT_SYMTAB), decoded.
 *
 * @param name the name from DT_STRTAB, without any version
 * @param binding LOCAL, GLOBAL, WEAK, GNU_UNIQUE, …
 * @param type FUNC, OBJECT, …
 * @param visibility from st_other
 * @param sectionIndex st_shndx: 0 (SHN_UNDEF) for an undefined symbol, 0xfff1 (SHN_ABS) for an absolute one
 * @param value st_value
 * @param size st_size
 * @param version the version from DT_VERSYM with DT_VERDEF/DT_VERNEED, if any
 */
public record DynamicSymbol(
    String name, SymbolBinding binding, SymbolType type, SymbolVisibility visibility, int sectionIndex, long value,
    long size, Optional<SymbolVersion> version) {

  /** SHN_UNDEF. */
  public static final int SHN_UNDEF = 0;

  /** Whether this object defines the symbol (st_shndx is not SHN_UNDEF). */
  public boolean defined() {
    return sectionIndex != SHN_UNDEF;
  }

  /**
   * The name as readelf prints it: {@code name@@VER} for a default version this object defines, {@code name@VER}
   * for a hidden one or one needed from another object, plain {@code name} without a version. The absolute symbol
   * the linker adds for each version definition (named as the version itself) prints plain too, as in readelf.
   */
  public String nameWithVersion() {
    if (version.isEmpty()) {
      return name;
    }
    SymbolVersion v = version.get();
    if (defined() && v.neededFrom().isEmpty() && v.name().equals(name)) {
      return name;
    }
    String separator = defined() && !v.hidden() && v.neededFrom().isEmpty() ? "@@" : "@";
    return name + separator + v.name();
  }
}
