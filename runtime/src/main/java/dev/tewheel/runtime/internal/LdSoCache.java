package dev.tewheel.runtime.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The dynamic linker's cache, {@code /etc/ld.so.cache}, as ldconfig writes it: the "glibc-ld.so.cache1.1" table
 * (alone since glibc 2.32, after the old "ld.so-1.7.0" one before). Read to answer "would dlopen find this name?"
 * without loading anything. Entries for other ABIs are filtered later by reading the file's ELF header.
 */
final class LdSoCache {
  static final Path FILE = Path.of("/etc/ld.so.cache");
  private static final byte[] NEW_MAGIC = "glibc-ld.so.cache1.1".getBytes(StandardCharsets.US_ASCII);
  private static final int NEW_HEADER = 48;
  private static final int NEW_ENTRY = 24;
  private static final int FLAG_TYPE_MASK = 0xff;
  private static final int FLAG_ELF_LIBC6 = 0x3;
  /** ld.so.cache is a few hundred KB on a busy machine; more than this is not a cache ldconfig wrote. */
  private static final long MAX_SIZE = 64L << 20;

  private LdSoCache() {}

  /** A parsed cache and the file state it was parsed from; reparsed when ldconfig rewrites the file. */
  private record Parsed(Path file, FileStamp stamp, Map<String, List<Path>> byName) {}

  private static volatile Parsed parsed;

  /** The paths the cache lists for {@code name}, in the cache's order (the order the linker tries them). */
  static List<Path> lookup(Path cache, String name) {
    return table(cache).getOrDefault(name, List.of());
  }

  private static Map<String, List<Path>> table(Path cache) {
    FileStamp stamp;
    try {
      if (!Files.isRegularFile(cache) || (stamp = FileStamp.of(cache)).size() > MAX_SIZE) {
        return Map.of();
      }
    } catch (IOException e) {
      return Map.of();
    }
    Parsed last = parsed;
    if (last != null && last.file().equals(cache) && last.stamp().equals(stamp)) {
      return last.byName();
    }
    Map<String, List<Path>> byName = parse(cache);
    parsed = new Parsed(cache, stamp, byName);
    return byName;
  }

  private static Map<String, List<Path>> parse(Path cache) {
    Map<String, List<Path>> byName = new HashMap<>();
    try {
      ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(cache)).order(ByteOrder.nativeOrder());
      int start = indexOf(bytes, NEW_MAGIC);
      if (start < 0 || start + NEW_HEADER > bytes.limit()) {
        return Map.of();
      }
      long entries = Integer.toUnsignedLong(bytes.getInt(start + NEW_MAGIC.length));
      for (long i = 0; i < entries; i++) {
        long at = start + NEW_HEADER + i * NEW_ENTRY;
        if (at + NEW_ENTRY > bytes.limit()) {
          break;
        }
        int flags = bytes.getInt((int) at);
        if ((flags & FLAG_TYPE_MASK) != FLAG_ELF_LIBC6) {
          continue;
        }
        String key = string(bytes, start + Integer.toUnsignedLong(bytes.getInt((int) at + 4)));
        String value = string(bytes, start + Integer.toUnsignedLong(bytes.getInt((int) at + 8)));
        if (key != null && value != null) {
          byName.computeIfAbsent(key, k -> new ArrayList<>()).add(Path.of(value));
        }
      }
    } catch (IOException | RuntimeException e) {
      // An unreadable or foreign cache answers nothing; the default folders are searched after it anyway.
      return Map.of();
    }
    byName.replaceAll((k, v) -> List.copyOf(v));
    return Map.copyOf(byName);
  }

  private static String string(ByteBuffer bytes, long offset) {
    if (offset < 0 || offset >= bytes.limit()) {
      return null;
    }
    int end = (int) offset;
    while (end < bytes.limit() && bytes.get(end) != 0) {
      end++;
    }
    byte[] text = new byte[end - (int) offset];
    bytes.get((int) offset, text);
    return new String(text, StandardCharsets.UTF_8);
  }

  private static int indexOf(ByteBuffer bytes, byte[] magic) {
    // The new table follows the old one, if any, within its first entries' length; 1 MiB is far past that.
    int limit = Math.min(bytes.limit(), 1 << 20) - magic.length;
    outer:
    for (int i = 0; i <= limit; i++) {
      for (int j = 0; j < magic.length; j++) {
        if (bytes.get(i + j) != magic[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
