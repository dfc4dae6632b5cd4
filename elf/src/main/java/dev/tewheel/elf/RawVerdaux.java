package dev.tewheel.elf;

import static dev.tewheel.elf.Fields.u32;

import java.nio.ByteBuffer;

/** Elf{32,64}_Verdaux: a version name (the first of a Verdef) or a parent's. */
record RawVerdaux(long name, long next) {
  static final int SIZE = 8;

  static RawVerdaux decode(ByteBuffer b) {
    return new RawVerdaux(u32(b, 0), u32(b, 4));
  }
}
