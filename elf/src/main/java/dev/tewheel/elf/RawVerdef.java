package dev.tewheel.elf;

import static dev.tewheel.elf.Fields.u16;
import static dev.tewheel.elf.Fields.u32;

import java.nio.ByteBuffer;

/** Elf{32,64}_Verdef: one version this object defines; its first Verdaux holds the name. */
record RawVerdef(int version, int flags, int index, int count, long hash, long aux, long next) {
  static final int SIZE = 20;
  /** vd_flags: the definition naming the object itself, not a symbol version. */
  static final int VER_FLG_BASE = 1;

  static RawVerdef decode(ByteBuffer b) {
    return new RawVerdef(u16(b, 0), u16(b, 2), u16(b, 4), u16(b, 6), u32(b, 8), u32(b, 12), u32(b, 16));
  }
}
