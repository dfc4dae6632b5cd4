package dev.tewheel.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Checked reads from a source: every range is tested against the file's size and {@link Limits} before a byte is
 * read or allocated, and every failure names the structure and its offset.
 */
final class ElfInput {
  /** Reads of at most this many bytes are served from a window read ahead (see the constructor). */
  private static final int SMALL_READ = 512;

  private final ByteSource source;
  private final long size;
  private final ByteOrder order;
  private final boolean is64;
  private final int window;
  private ByteBuffer ahead;
  private long aheadAt;

  ElfInput(ByteSource source, ByteOrder order, boolean is64) {
    this(source, order, is64, 0);
  }

  /**
   * @param window bytes read at once to serve reads of at most {@value #SMALL_READ} bytes from, or 0: the headers
   *     and version records a parse walks lie close together; not thread-safe when not 0
   */
  ElfInput(ByteSource source, ByteOrder order, boolean is64, int window) {
    this.source = source;
    this.size = source.size();
    this.order = order;
    this.is64 = is64;
    this.window = window;
  }

  String name() {
    return source.name();
  }

  long size() {
    return size;
  }

  boolean is64() {
    return is64;
  }

  /** Reads {@code length} bytes at {@code offset} (both unsigned), ordered as the file. */
  ByteBuffer read(String structure, long offset, long length) throws IOException {
    checkRange(structure, offset, length);
    if (length > Limits.MAX_TABLE_BYTES) {
      throw error(structure, offset, length + " bytes exceed the reader's limit of " + Limits.MAX_TABLE_BYTES
          + " bytes for one table");
    }
    if (length > SMALL_READ || length >= window) {
      return source.read(offset, (int) length).order(order);
    }
    if (ahead == null || offset < aheadAt || offset + length > aheadAt + ahead.limit()) {
      ahead = source.read(offset, (int) Math.min(window, size - offset));
      aheadAt = offset;
    }
    return ahead.slice((int) (offset - aheadAt), (int) length).order(order);
  }

  /** Fails unless {@code [offset, offset + length)} (unsigned) lies inside the file. */
  void checkRange(String structure, long offset, long length) throws ElfFormatException {
    if (offset < 0 || length < 0 || offset > size || length > size - offset) {
      throw error(structure, offset, Long.toUnsignedString(length) + " bytes at byte 0x" + Long.toHexString(offset)
          + " do not fit in the file's " + size + " bytes");
    }
  }

  /** {@code count * entrySize} bytes of a table, failing on overflow or when they cannot fit in the file. */
  long tableLength(String structure, long offset, long count, long entrySize) throws ElfFormatException {
    if (count < 0 || entrySize < 0
        || (entrySize != 0 && Long.compareUnsigned(count, Long.divideUnsigned(size, entrySize)) > 0)) {
      throw error(structure, offset, Long.toUnsignedString(count) + " entries of " + Long.toUnsignedString(entrySize)
          + " bytes do not fit in the file's " + size + " bytes");
    }
    return count * entrySize;
  }

  /** {@code base + delta} as a file offset, failing on overflow. */
  long add(String structure, long base, long delta) throws ElfFormatException {
    long sum = base + delta;
    if (base < 0 || delta < 0 || sum < 0) {
      throw error(structure, base, "offset " + Long.toUnsignedString(base) + " + " + Long.toUnsignedString(delta)
          + " overflows");
    }
    return sum;
  }

  ElfFormatException error(String structure, long offset, String detail) {
    return new ElfFormatException(source.name(), structure, offset, detail);
  }
}
