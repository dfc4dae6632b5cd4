package dev.tewheel.elf;

import static dev.tewheel.elf.Fields.u16;
import static dev.tewheel.elf.Fields.u32;
import static dev.tewheel.elf.Fields.u8;

import java.nio.ByteBuffer;

/** Elf32_Sym / Elf64_Sym as stored (the two order their fields differently). */
record RawSymbol(long name, int info, int other, int shndx, long value, long size) {
  static final StoredSize SIZE = new StoredSize(16, 24);

  static RawSymbol decode(ByteBuffer b, int at, boolean is64) {
    if (is64) {
      return new RawSymbol(u32(b, at), u8(b, at + 4), u8(b, at + 5), u16(b, at + 6), b.getLong(at + 8),
          b.getLong(at + 16));
    }
    return new RawSymbol(u32(b, at), u8(b, at + 12), u8(b, at + 13), u16(b, at + 14), u32(b, at + 4),
        u32(b, at + 8));
  }

  int binding() {
    return info >>> 4;
  }

  int type() {
    return info & 0xf;
  }
}
