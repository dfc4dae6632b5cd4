package dev.tewheel.elf;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** A string table (DT_STRTAB, a section-name table): NUL-terminated strings addressed by byte index. */
record StringTable(ByteBuffer bytes, String structure, long fileOffset, ElfInput input) {
  static StringTable read(ElfInput input, String structure, long offset, long length) throws java.io.IOException {
    return new StringTable(input.read(structure, offset, length), structure, offset, input);
  }

  /** A table with no strings, for files without one: every index but 0 is out of range. */
  static StringTable empty(ElfInput input, String structure) {
    return new StringTable(ByteBuffer.allocate(1), structure, 0, input);
  }

  /**
   * The string starting at {@code index}. An index past the end, or a string the table ends before terminating,
   * is an error rather than a guess: a checker must not act on half a name.
   */
  String at(long index) throws ElfFormatException {
    int limit = bytes.limit();
    if (index < 0 || index >= limit) {
      throw input.error(structure, fileOffset, "string index " + Long.toUnsignedString(index)
          + " is outside the table's " + limit + " bytes");
    }
    int start = (int) index;
    int end = start;
    while (end < limit && bytes.get(end) != 0) {
      end++;
    }
    if (end == limit) {
      throw input.error(structure, fileOffset, "string at index " + start + " is not terminated before the table"
          + " ends at " + limit + " bytes");
    }
    byte[] chars = new byte[end - start];
    bytes.get(start, chars);
    return new String(chars, StandardCharsets.UTF_8);
  }
}
