package dev.tewheel.elf;

import static dev.tewheel.elf.Fields.u16;
import static dev.tewheel.elf.Fields.u32;

import java.nio.ByteBuffer;

/** Elf{32,64}_Verneed (same layout in both classes): one needed file, the head of its Vernaux chain. */
record RawVerneed(int version, int count, long file, long aux, long next) {
  static final int SIZE = 16;

  static RawVerneed decode(ByteBuffer b) {
    return new RawVerneed(u16(b, 0), u16(b, 2), u32(b, 4), u32(b, 8), u32(b, 12));
  }
}
