package dev.tewheel.elf;

/** e_type: relocatable, executable, shared object, core, or an OS- or processor-specific number. */
public final class ElfType extends NumberedConstant {
  private static final NameTable NAMES = NameTable.of(0, "NONE", 1, "REL", 2, "EXEC", 3, "DYN", 4, "CORE");

  public static final ElfType EXEC = new ElfType(2);
  public static final ElfType DYN = new ElfType(3);

  public ElfType(int value) {
    super(value, NAMES);
  }
}
