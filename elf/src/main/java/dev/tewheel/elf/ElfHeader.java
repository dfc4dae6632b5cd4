package dev.tewheel.elf;

/**
 * The decoded file header.
 *
 * @param elfClass 32- or 64-bit
 * @param data byte order
 * @param osAbi EI_OSABI
 * @param abiVersion EI_ABIVERSION
 * @param type e_type
 * @param machine e_machine
 * @param entry e_entry, the entry point address (0 for most shared objects)
 * @param flags e_flags, processor-specific
 */
public record ElfHeader(
    ElfClass elfClass, ElfData data, OsAbi osAbi, int abiVersion, ElfType type, ElfMachine machine, long entry,
    int flags) {

  /** For people: "ELF64 LSB DYN x86_64". */
  @Override
  public String toString() {
    return elfClass + " " + data + " " + type + " " + machine;
  }
}
