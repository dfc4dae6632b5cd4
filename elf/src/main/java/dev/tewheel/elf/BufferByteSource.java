package dev.tewheel.elf;

import java.io.EOFException;
import java.nio.ByteBuffer;

/** Reads from a buffer in memory without copying: each read is a read-only slice. */
final class BufferByteSource implements ByteSource {
  private final ByteBuffer buffer;
  private final String name;

  /** @param buffer positioned at 0; never modified through this source */
  BufferByteSource(ByteBuffer buffer, String name) {
    this.buffer = buffer.asReadOnlyBuffer();
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long size() {
    return buffer.capacity();
  }

  @Override
  public ByteBuffer read(long position, int length) throws EOFException {
    requireRange(position, length);
    // slice(int, int) uses absolute indexes, so concurrent readers never share a position.
    return buffer.slice((int) position, length);
  }

  @Override
  public String toString() {
    return "BufferByteSource[" + name + ", " + buffer.capacity() + " bytes]";
  }
}
