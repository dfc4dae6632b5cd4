package dev.tewheel.elf;

import java.nio.ByteBuffer;

/** Unsigned field reads at absolute positions of a buffer already set to the file's byte order. */
final class Fields {
  private Fields() {}

  static int u8(ByteBuffer b, int at) {
    return b.get(at) & 0xff;
  }

  static int u16(ByteBuffer b, int at) {
    return b.getShort(at) & 0xffff;
  }

  static long u32(ByteBuffer b, int at) {
    return b.getInt(at) & 0xffffffffL;
  }

  /** An Elf32_Addr/Off/Word or Elf64_Addr/Off/Xword: 4 or 8 bytes, unsigned (a 64-bit value may look negative). */
  static long word(ByteBuffer b, int at, boolean is64) {
    return is64 ? b.getLong(at) : u32(b, at);
  }
}
