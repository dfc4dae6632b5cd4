package dev.tewheel.elf;

/** EI_CLASS: the width of addresses and offsets in the file. */
public enum ElfClass {
  ELF32(32),
  ELF64(64);

  private final int bits;

  ElfClass(int bits) {
    this.bits = bits;
  }

  /** 32 or 64. */
  public int bits() {
    return bits;
  }
}
