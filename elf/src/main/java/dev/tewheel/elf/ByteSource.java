package dev.tewheel.elf;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Random access to the bytes of one file-like thing: a file on disk, or bytes already in memory (an entry of a
 * zip, a test image). The reader asks only for the ranges it needs, so inspecting a large library reads a few
 * kilobytes of it.
 *
 * <p>Implementations are safe for concurrent reads. Wrap a source in a {@link CountingByteSource} to learn how many
 * bytes a reading took.
 */
public interface ByteSource extends Closeable {

  /** A name for messages, usually the path. */
  String name();

  /** The size in bytes, fixed when the source was made. */
  long size();

  /**
   * Reads exactly {@code length} bytes starting at {@code position}.
   *
   * @return a buffer positioned at 0 whose remaining bytes are the ones asked for; its byte order is unspecified
   *     and may be changed by the caller
   * @throws java.io.EOFException when the range is not inside {@code [0, size())}
   * @throws IOException when the underlying storage fails
   */
  ByteBuffer read(long position, int length) throws IOException;

  /**
   * The check {@link #read} makes first: throws its EOFException when {@code length} bytes at {@code position} are
   * not inside {@code [0, size())}, so that every source words it alike.
   */
  default void requireRange(long position, int length) throws EOFException {
    long size = size();
    if (position < 0 || length < 0 || position > size - length) {
      throw new EOFException(name() + ": cannot read " + length + " bytes at byte " + position + " of " + size);
    }
  }

  /** Releases what the source holds open; a no-op for in-memory sources. */
  @Override
  default void close() throws IOException {}

  /** Opens a regular file for positional reads (a {@link java.nio.channels.FileChannel}); close it when done. */
  static ByteSource open(Path path) throws IOException {
    return FileByteSource.open(path);
  }

  /**
   * A file already opened (e.g. with {@code LinkOption.NOFOLLOW_LINKS}, so that what was checked is what is read);
   * {@code name} names it in messages. Closing the source closes the channel.
   */
  static ByteSource open(java.nio.channels.FileChannel channel, String name) throws IOException {
    return new FileByteSource(channel, name, 0, channel.size());
  }

  /**
   * A region of a regular file, e.g. a stored (uncompressed) entry of a zip read in place: positions count from
   * {@code offset}; {@code name} names it in messages. Close it when done.
   */
  static ByteSource open(Path path, long offset, long size, String name) throws IOException {
    return FileByteSource.region(path, offset, size, name);
  }

  /** A source over bytes in memory. The array is not copied: do not change it while the source is in use. */
  static ByteSource of(byte[] bytes, String name) {
    return new BufferByteSource(ByteBuffer.wrap(bytes), name);
  }

  /**
   * A source over the remaining bytes of a buffer (heap, direct or memory-mapped). The buffer's content is not
   * copied and its position and limit are not changed.
   */
  static ByteSource of(ByteBuffer buffer, String name) {
    return new BufferByteSource(buffer.slice(), name);
  }
}
