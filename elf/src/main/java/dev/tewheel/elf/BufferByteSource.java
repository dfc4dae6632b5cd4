package dev.tewheel.elf;

import java.io.EOFException;
import java.nio.ByteBuffer;

/** Reads from a buffer in memory without copying: each read is a read-only slice. */
record BufferByteSource(ByteBuffer buffer, String name) implements ByteSource {
  /** @param buffer positioned at 0; never modified through this source */
  BufferByteSource {
    buffer = buffer.asReadOnlyBuffer();
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
