package dev.tewheel.elf;

import static dev.tewheel.elf.Fields.u32;
import static dev.tewheel.elf.Fields.word;

import java.nio.ByteBuffer;

/** Elf32_Shdr / Elf64_Shdr as stored. */
record RawSectionHeader(long name, long type, long flags, long addr, long offset, long size, long link, long info,
    long addralign, long entsize) {
  static final StoredSize SIZE = new StoredSize(40, 64);

  static RawSectionHeader decode(ByteBuffer b, int at, boolean is64) {
    int w = is64 ? 8 : 4;
    int link = at + 8 + 4 * w; // after sh_name, sh_type, sh_flags, sh_addr, sh_offset, sh_size
    return new RawSectionHeader(u32(b, at), u32(b, at + 4), word(b, at + 8, is64), word(b, at + 8 + w, is64),
        word(b, at + 8 + 2 * w, is64), word(b, at + 8 + 3 * w, is64), u32(b, link), u32(b, link + 4),
        word(b, link + 8, is64), word(b, link + 8 + w, is64));
  }

  SectionHeader decoded(String name) {
    return new SectionHeader(name, (int) type, flags, addr, offset, size, (int) link, (int) info, entsize);
  }
}
