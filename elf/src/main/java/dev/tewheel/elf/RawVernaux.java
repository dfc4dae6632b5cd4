package dev.tewheel.elf;

import static dev.tewheel.elf.Fields.u16;
import static dev.tewheel.elf.Fields.u32;

import java.nio.ByteBuffer;

/** Elf{32,64}_Vernaux: one version needed from a file; {@code other} is the index DT_VERSYM refers to. */
record RawVernaux(long hash, int flags, int other, long name, long next) {
  static final int SIZE = 16;

  static RawVernaux decode(ByteBuffer b) {
    return new RawVernaux(u32(b, 0), u16(b, 4), u16(b, 6), u32(b, 8), u32(b, 12));
  }
}
