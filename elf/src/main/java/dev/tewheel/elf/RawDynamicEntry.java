package dev.tewheel.elf;

import static dev.tewheel.elf.Fields.word;

import java.nio.ByteBuffer;

/** Elf32_Dyn / Elf64_Dyn: a tag and a value or address. */
record RawDynamicEntry(long tag, long value) {
  static final StoredSize SIZE = new StoredSize(8, 16);

  static RawDynamicEntry decode(ByteBuffer b, int at, boolean is64) {
    int w = is64 ? 8 : 4;
    // Tags are read unsigned: every tag this reader knows is positive in both widths.
    return new RawDynamicEntry(word(b, at, is64), word(b, at + w, is64));
  }
}
