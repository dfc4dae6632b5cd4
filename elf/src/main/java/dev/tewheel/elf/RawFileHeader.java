package dev.tewheel.elf;

import static dev.tewheel.elf.Fields.u16;
import static dev.tewheel.elf.Fields.u32;
import static dev.tewheel.elf.Fields.word;

import java.nio.ByteBuffer;

/** Elf32_Ehdr / Elf64_Ehdr as stored, after the 16 identification bytes are checked. */
record RawFileHeader(
    int type, int machine, long version, long entry, long phoff, long shoff, int flags, int ehsize, int phentsize,
    int phnum, int shentsize, int shnum, int shstrndx) {
  static final int IDENT_SIZE = 16;
  static final StoredSize SIZE = new StoredSize(52, 64);

  static RawFileHeader decode(ByteBuffer b, boolean is64) {
    int w = is64 ? 8 : 4;
    int at = 24 + 3 * w; // after ident, e_type, e_machine, e_version, e_entry, e_phoff, e_shoff
    return new RawFileHeader(
        u16(b, 16), u16(b, 18), u32(b, 20), word(b, 24, is64), word(b, 24 + w, is64), word(b, 24 + 2 * w, is64),
        b.getInt(at), u16(b, at + 4), u16(b, at + 6), u16(b, at + 8), u16(b, at + 10), u16(b, at + 12),
        u16(b, at + 14));
  }
}
