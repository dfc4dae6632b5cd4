package dev.tewheel.elf;

/**
 * The bytes one raw record takes in a file of each class (Elf32_Shdr: 40, Elf64_Shdr: 64): the one place the
 * size is chosen by ELFCLASS.
 */
record StoredSize(int elf32, int elf64) {
  int of(boolean is64) {
    return is64 ? elf64 : elf32;
  }
}
