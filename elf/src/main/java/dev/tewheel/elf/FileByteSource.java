package dev.tewheel.elf;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Positional reads from a file; FileChannel's positional read is safe to call from several threads at once. */
final class FileByteSource implements ByteSource {
  private final FileChannel channel;
  private final String name;
  private final long size;

  private FileByteSource(FileChannel channel, String name, long size) {
    this.channel = channel;
    this.name = name;
    this.size = size;
  }

  static FileByteSource open(Path path) throws IOException {
    // Opening a folder for reading succeeds on Linux and only fails at the first read, with a vaguer message.
    if (Files.isDirectory(path)) {
      throw new IOException(path + ": is a directory");
    }
    FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
    try {
      return new FileByteSource(channel, path.toString(), channel.size());
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
      int n = channel.read(buffer, position + buffer.position());
      if (n < 0) {
        // The file shrank after it was opened.
        throw new EOFException(name + ": file ended at byte " + (position + buffer.position())
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
