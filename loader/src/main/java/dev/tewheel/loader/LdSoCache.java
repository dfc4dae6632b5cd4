package dev.tewheel.loader;

import dev.tewheel.elf.ElfMachine;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The dynamic linker's cache, {@code /etc/ld.so.cache}, as ldconfig writes it: the "glibc-ld.so.cache1.1" table
 * (alone since glibc 2.32, after the old "ld.so-1.7.0" one before), with its glibc-hwcaps extension (glibc 2.33+).
 * Read to answer "would dlopen find this name?" without loading anything, choosing one entry as glibc's
 * dl-cache.c does ({@link #choose}).
 */
public final class LdSoCache {
  public static final Path FILE = Path.of("/etc/ld.so.cache");
  private static final byte[] NEW_MAGIC = "glibc-ld.so.cache1.1".getBytes(StandardCharsets.US_ASCII);
  private static final int NEW_HEADER = 48;
  private static final int NEW_ENTRY = 24;
  private static final int FLAG_TYPE_MASK = 0xff;
  private static final int FLAG_ELF_LIBC6 = 0x3;
  /** glibc's _DL_CACHE_DEFAULT_ID: libc6 plus the machine's 64-bit flag (FLAG_X8664_LIB64, FLAG_AARCH64_LIB64). */
  private static final int X86_64_ID = 0x0303;
  private static final int AARCH64_ID = 0x0a03;
  private static final int EXTENSION_MAGIC = 0xeaa42174;
  private static final int TAG_GLIBC_HWCAPS = 1;
  /** DL_CACHE_HWCAP_EXTENSION (bit 62) in hwcap's upper half, beside the 10 ISA-level bits. */
  private static final long HWCAP_EXTENSION_HIGH = 1L << 30;
  private static final long ISA_LEVEL_MASK = (1 << 10) - 1;
  /** ld.so.cache is a few hundred KB on a busy machine; more than this is not a cache ldconfig wrote. */
  private static final long MAX_SIZE = 64L << 20;

  private LdSoCache() {}

  /**
   * One entry: the file, its flags, and its hwcaps subfolder name (glibc-hwcaps extension), or a legacy hwcap
   * value (non-zero: a subfolder of the mechanism glibc 2.37 removed).
   */
  public record Entry(Path file, int flags, Optional<String> hwcaps, long legacyHwcap) {}

  /**
   * A cache file as read, and the file state it was read from; read again when ldconfig rewrites the file. Only the
   * entries of a name asked for are decoded (a cache lists about a thousand libraries; a search asks for a few), and
   * each name once.
   */
  private static final class Table {
    final Path file;
    final FileStamp stamp;
    private final ByteBuffer bytes;
    private final int start;
    private final long entries;
    private final List<String> hwcapsNames;
    private final Map<String, List<Entry>> asked = new ConcurrentHashMap<>();

    Table(Path file, FileStamp stamp, ByteBuffer bytes, int start) {
      this.file = file;
      this.stamp = stamp;
      this.bytes = bytes;
      this.start = start;
      this.entries = start < 0 ? 0 : Integer.toUnsignedLong(bytes.getInt(start + NEW_MAGIC.length));
      this.hwcapsNames = start < 0 ? List.of()
          : hwcapsNames(bytes, start, Integer.toUnsignedLong(bytes.getInt(start + NEW_MAGIC.length + 12)));
    }

    List<Entry> entries(String name) {
      List<Entry> known = asked.get(name);
      if (known == null) {
        known = decode(name.getBytes(StandardCharsets.UTF_8));
        asked.put(name, known);
      }
      return known;
    }

    /** The entries whose key is {@code key}, in the cache's order; the others' keys are compared, not decoded. */
    private List<Entry> decode(byte[] key) {
      List<Entry> found = new ArrayList<>();
      for (long i = 0; i < entries; i++) {
        long at = start + NEW_HEADER + i * NEW_ENTRY;
        if (at + NEW_ENTRY > bytes.limit()) {
          break;
        }
        int flags = bytes.getInt((int) at);
        if ((flags & FLAG_TYPE_MASK) != FLAG_ELF_LIBC6
            || !keyIs(start + Integer.toUnsignedLong(bytes.getInt((int) at + 4)), key)) {
          continue;
        }
        String value = string(bytes, start + Integer.toUnsignedLong(bytes.getInt((int) at + 8)));
        long hwcap = bytes.getLong((int) at + 16);
        Optional<String> hwcaps = Optional.empty();
        if (((hwcap >>> 32) & ~ISA_LEVEL_MASK) == HWCAP_EXTENSION_HIGH) {
          long index = hwcap & 0xffffffffL;
          if (index >= hwcapsNames.size()) {
            continue; // names no subfolder glibc knows: never chosen
          }
          hwcaps = Optional.of(hwcapsNames.get((int) index));
          hwcap = 0;
        }
        if (value != null) {
          found.add(new Entry(Path.of(value), flags, hwcaps, hwcap));
        }
      }
      return List.copyOf(found);
    }

    /** Whether the NUL-terminated string at {@code offset} is {@code key}. */
    private boolean keyIs(long offset, byte[] key) {
      if (offset < 0 || offset + key.length >= bytes.limit()) {
        return false;
      }
      for (int i = 0; i < key.length; i++) {
        if (bytes.get((int) offset + i) != key[i]) {
          return false;
        }
      }
      return bytes.get((int) offset + key.length) == 0;
    }
  }

  private static volatile Table table;

  /** The paths the cache lists for {@code name}, in the cache's order. */
  public static List<Path> lookup(Path cache, String name) {
    List<Path> files = new ArrayList<>();
    for (Entry entry : entries(cache, name)) {
      files.add(entry.file());
    }
    return List.copyOf(files);
  }

  /**
   * The one file the dynamic linker takes from the cache for {@code name} (dl-cache.c's search_cache): among the
   * entries of this machine's flags, a glibc-hwcaps entry of the subfolder ranked highest in {@code subfolders}
   * (entries of subfolders this CPU lacks skipped), else the first plain entry; legacy-hwcap entries are skipped.
   * The linker tries only this file; if it cannot be opened, the cache has no answer.
   */
  public static Optional<Path> choose(Path cache, String name, ElfMachine machine, List<String> subfolders) {
    int defaultId = machine.equals(ElfMachine.X86_64) ? X86_64_ID : machine.equals(ElfMachine.AARCH64) ? AARCH64_ID
        : FLAG_ELF_LIBC6;
    Entry best = null;
    int bestPriority = 0;
    for (Entry entry : entries(cache, name)) {
      if (entry.flags() != 1 && entry.flags() != defaultId) {
        continue;
      }
      if (entry.hwcaps().isPresent()) {
        int priority = subfolders.indexOf("glibc-hwcaps/" + entry.hwcaps().get() + "/") + 1;
        if (priority == 0 || (best != null && priority >= bestPriority)) {
          continue;
        }
        bestPriority = priority;
        best = entry;
        continue;
      }
      if (best != null) {
        break; // the hwcaps entries come first; the best of them wins
      }
      if (entry.legacyHwcap() != 0) {
        continue;
      }
      best = entry;
      if (entry.flags() == defaultId) {
        break;
      }
    }
    return Optional.ofNullable(best).map(Entry::file);
  }

  /** The entries of {@code name} in the cache file {@code cache}; none when it cannot be read or is no cache. */
  private static List<Entry> entries(Path cache, String name) {
    FileStamp stamp;
    try {
      if (!Files.isRegularFile(cache) || (stamp = FileStamp.of(cache)).size() > MAX_SIZE) {
        return List.of();
      }
    } catch (IOException e) {
      return List.of();
    }
    Table last = table;
    if (last == null || !last.file.equals(cache) || !last.stamp.equals(stamp)) {
      try {
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(cache)).order(ByteOrder.nativeOrder());
        int start = indexOf(bytes, NEW_MAGIC);
        last = new Table(cache, stamp, bytes, start < 0 || start + NEW_HEADER > bytes.limit() ? -1 : start);
      } catch (IOException | RuntimeException e) {
        // An unreadable or foreign cache answers nothing; the default folders are searched after it anyway.
        return List.of();
      }
      table = last;
    }
    try {
      return last.entries(name);
    } catch (RuntimeException e) {
      return List.of(); // a damaged cache: its offsets lead outside the file
    }
  }

  /** The glibc-hwcaps section of the cache's extension: subfolder names by index; empty without one. */
  private static List<String> hwcapsNames(ByteBuffer bytes, int start, long extensionOffset) {
    List<String> names = new ArrayList<>();
    long at = start + extensionOffset;
    if (extensionOffset == 0 || at + 8 > bytes.limit() || bytes.getInt((int) at) != EXTENSION_MAGIC) {
      return names;
    }
    long count = Integer.toUnsignedLong(bytes.getInt((int) at + 4));
    for (long i = 0; i < count && at + 8 + (i + 1) * 16 <= bytes.limit(); i++) {
      int section = (int) (at + 8 + i * 16);
      if (bytes.getInt(section) != TAG_GLIBC_HWCAPS) {
        continue;
      }
      long offset = start + Integer.toUnsignedLong(bytes.getInt(section + 8));
      long size = Integer.toUnsignedLong(bytes.getInt(section + 12));
      for (long j = 0; j + 4 <= size && offset + j + 4 <= bytes.limit(); j += 4) {
        String name = string(bytes, start + Integer.toUnsignedLong(bytes.getInt((int) (offset + j))));
        names.add(name == null ? "" : name);
      }
    }
    return names;
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
