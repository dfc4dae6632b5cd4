package dev.tewheel.core.wheel;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.commons.compress.archivers.zip.ZipFile;

/** Byte surgery on written test archives: what a hostile or corrupt wheel looks like. */
public final class ZipBytes {
  private ZipBytes() {}

  /** Makes the central directory and local header of {@code name} declare {@code size} uncompressed bytes. */
  public static void declareSize(Path whl, String name, long size) throws IOException {
    byte[] bytes = Files.readAllBytes(whl);
    byte[] wanted = name.getBytes(StandardCharsets.UTF_8);
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int patched = 0;
    for (int i = 0; i + 46 < bytes.length; i++) {
      int signature = buffer.getInt(i);
      if (signature == 0x02014b50 && nameAt(bytes, i + 46, buffer.getShort(i + 28) & 0xffff, wanted)) {
        buffer.putInt(i + 24, (int) size); // central directory: uncompressed size
        patched++;
      } else if (signature == 0x04034b50 && nameAt(bytes, i + 30, buffer.getShort(i + 26) & 0xffff, wanted)) {
        buffer.putInt(i + 22, (int) size); // local header: uncompressed size
        patched++;
      }
    }
    if (patched != 2) {
      throw new IllegalStateException("found " + patched + " headers of " + name + " in " + whl);
    }
    Files.write(whl, bytes);
  }

  /**
   * Renames an entry in place, in its central directory and local headers, to a name of the same length: for names
   * that Commons Compress would not write as given (a '\' in an entry made on DOS becomes '/').
   */
  public static void rename(Path whl, String name, String to) throws IOException {
    byte[] from = name.getBytes(StandardCharsets.UTF_8);
    byte[] replacement = to.getBytes(StandardCharsets.UTF_8);
    if (from.length != replacement.length) {
      throw new IllegalArgumentException("names of different lengths");
    }
    byte[] bytes = Files.readAllBytes(whl);
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int patched = 0;
    for (int i = 0; i + 46 < bytes.length; i++) {
      int signature = buffer.getInt(i);
      int at = signature == 0x02014b50 ? i + 46 : signature == 0x04034b50 ? i + 30 : -1;
      int length = signature == 0x02014b50 ? buffer.getShort(i + 28) & 0xffff : buffer.getShort(i + 26) & 0xffff;
      if (at > 0 && nameAt(bytes, at, length, from)) {
        System.arraycopy(replacement, 0, bytes, at, replacement.length);
        patched++;
      }
    }
    if (patched != 2) {
      throw new IllegalStateException("found " + patched + " headers of " + name + " in " + whl);
    }
    Files.write(whl, bytes);
  }

  /** Flips the bits of one byte of a STORED entry's data, in place. */
  public static void flipStoredByte(Path whl, String name, int index) throws IOException {
    long offset;
    try (ZipFile zip = ZipFile.builder().setPath(whl).get()) {
      var entry = zip.getEntry(name);
      zip.getRawInputStream(entry).close();
      offset = entry.getDataOffset();
    }
    try (var channel = java.nio.channels.FileChannel.open(whl, java.nio.file.StandardOpenOption.READ,
        java.nio.file.StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      channel.read(one, offset + index);
      one.put(0, (byte) ~one.get(0)).rewind();
      channel.write(one, offset + index);
    }
  }

  /** Adds {@code delta} to the entry count of the ZIP64 end record (the last one in the file), in place. */
  public static void bumpZip64EntryCount(Path whl, long delta) throws IOException {
    byte[] bytes = Files.readAllBytes(whl);
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = bytes.length - 56; i >= 0; i--) {
      if (buffer.getInt(i) == 0x06064b50) {
        buffer.putLong(i + 24, buffer.getLong(i + 24) + delta); // entries on this disk
        buffer.putLong(i + 32, buffer.getLong(i + 32) + delta); // entries in all
        Files.write(whl, bytes);
        return;
      }
    }
    throw new IllegalStateException("no ZIP64 end record in " + whl);
  }

  private static boolean nameAt(byte[] bytes, int at, int length, byte[] wanted) {
    return length == wanted.length && at + length <= bytes.length
        && Arrays.equals(bytes, at, at + length, wanted, 0, wanted.length);
  }
}
