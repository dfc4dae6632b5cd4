package dev.tewheel.core.wheel;

import dev.tewheel.elf.ByteSource;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A STORED entry read in place: positional reads from its region of the .whl, nothing copied beyond what is asked
 * for. FileChannel's positional reads are safe from several threads at once.
 */
final class StoredEntrySource implements ByteSource {
  private final FileChannel channel;
  private final long offset;
  private final long size;
  private final String name;

  private StoredEntrySource(FileChannel channel, long offset, long size, String name) {
    this.channel = channel;
    this.offset = offset;
    this.size = size;
    this.name = name;
  }

  /** Opens the .whl for the entry whose data starts at {@code offset} and holds {@code size} bytes. */
  static StoredEntrySource open(Path whl, long offset, long size, String name) throws IOException {
    FileChannel channel = FileChannel.open(whl, StandardOpenOption.READ);
    try {
      long fileSize = channel.size();
      if (offset < 0 || size < 0 || offset > fileSize || size > fileSize - offset) {
        throw new IOException(name + ": the entry's " + size + " bytes at byte " + offset + " do not fit in the"
            + " archive's " + fileSize + " bytes (a truncated or corrupt archive)");
      }
      return new StoredEntrySource(channel, offset, size, name);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public ByteBuffer read(long position, int length) throws IOException {
    if (position < 0 || length < 0 || position > size - length) {
      throw new EOFException(name + ": cannot read " + length + " bytes at byte " + position + " of " + size);
    }
    ByteBuffer buffer = ByteBuffer.allocate(length);
    while (buffer.hasRemaining()) {
      int n = channel.read(buffer, offset + position + buffer.position());
      if (n < 0) {
        throw new EOFException(name + ": the archive ended at byte " + (offset + position + buffer.position())
            + " while reading " + length + " bytes at byte " + position + " of the entry");
      }
    }
    return buffer.flip();
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }

  @Override
  public String toString() {
    return "StoredEntrySource[" + name + ", " + size + " bytes at " + offset + "]";
  }
}
