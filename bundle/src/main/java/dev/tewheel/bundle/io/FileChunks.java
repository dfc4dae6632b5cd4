package dev.tewheel.bundle.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

/**
 * A file's bytes, handed on chunk by chunk through one direct buffer: the one way a whole file is streamed into a
 * digest or a checksum (SHA-256, a zip entry's CRC-32) in bounded memory.
 */
public final class FileChunks {
  /** Direct: the bytes go from the page cache straight to the consumer, one copy fewer than a heap array. */
  private static final int BUFFER = 1 << 20;

  private FileChunks() {}

  /** Gives {@code each} the file's bytes in order, each chunk a buffer it reads to its limit. */
  public static void read(Path file, Consumer<ByteBuffer> each) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER);
    try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
      while (in.read(buffer) > 0) {
        buffer.flip();
        each.accept(buffer);
        buffer.clear();
      }
    }
  }
}
