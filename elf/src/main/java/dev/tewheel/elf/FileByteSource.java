package dev.tewheel.elf;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Positional reads from a file, or from a region of one (a stored entry of a zip); FileChannel's positional read is
 * safe to call from several threads at once.
 */
record FileByteSource(FileChannel channel, String name, long offset, long size) implements ByteSource {
  static FileByteSource open(Path path) throws IOException {
    // Opening a folder for reading succeeds on Linux and only fails at the first read, with a vaguer message.
    if (Files.isDirectory(path)) {
      throw new IOException(path + ": is a directory");
    }
    FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
    try {
      return new FileByteSource(channel, path.toString(), 0, channel.size());
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  static FileByteSource region(Path path, long offset, long size, String name) throws IOException {
    FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
    try {
      long fileSize = channel.size();
      if (offset < 0 || size < 0 || offset > fileSize || size > fileSize - offset) {
        throw new IOException(name + ": " + size + " bytes at byte " + offset + " do not fit in " + path + "'s "
            + fileSize + " bytes (a truncated or corrupt file)");
      }
      return new FileByteSource(channel, name, offset, size);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  @Override
  public ByteBuffer read(long position, int length) throws IOException {
    requireRange(position, length);
    ByteBuffer buffer = ByteBuffer.allocate(length);
    while (buffer.hasRemaining()) {
      int n = channel.read(buffer, offset + position + buffer.position());
      if (n < 0) {
        // The file shrank after it was opened.
        throw new EOFException(name + ": file ended at byte " + (offset + position + buffer.position())
            + " while reading " + length + " bytes at byte " + position);
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
    return "FileByteSource[" + name + ", " + size + " bytes]";
  }
}
