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
 * @param versym the raw DT_VERSYM entry: the version index in the low 15 bits and {@link #VERSYM_HIDDEN}, or
 *     {@link #NO_VERSYM} when the object has no DT_VERSYM. glibc reads the index itself (index 0 and 1 name no
 *     version; an unversioned reference treats index 2 apart from the higher ones)
 */
public record DynamicSymbol(
    String name, SymbolBinding binding, SymbolType type, SymbolVisibility visibility, int sectionIndex, long value,
    long size, Optional<SymbolVersion> version, int versym) {

  /** SHN_UNDEF. */
  public static final int SHN_UNDEF = 0;
  /** SHN_ABS: an absolute value, not an address in the object. */
  public static final int SHN_ABS = 0xfff1;
  /** {@link #versym()} of a symbol whose object has no DT_VERSYM. */
  public static final int NO_VERSYM = -1;
  /** The DT_VERSYM bit of a non-default version ({@code name@VER} rather than {@code name@@VER}). */
  public static final int VERSYM_HIDDEN = 0x8000;

  /** The version index of {@link #versym()} without the hidden bit; {@link #NO_VERSYM} without DT_VERSYM. */
  public int versionIndex() {
    return versym == NO_VERSYM ? NO_VERSYM : versym & 0x7fff;
  }

  /** Whether DT_VERSYM marks this entry hidden ({@link #VERSYM_HIDDEN}). */
  public boolean versymHidden() {
    return versym != NO_VERSYM && (versym & VERSYM_HIDDEN) != 0;
  }

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
