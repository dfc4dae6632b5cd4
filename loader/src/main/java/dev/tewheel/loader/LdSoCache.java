package dev.tewheel.loader;

import dev.tewheel.elf.ElfMachine;
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
import java.util.Optional;

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

  /** A parsed cache and the file state it was parsed from; reparsed when ldconfig rewrites the file. */
  private record Parsed(Path file, FileStamp stamp, Map<String, List<Entry>> byName) {}

  private static volatile Parsed parsed;

  /** The paths the cache lists for {@code name}, in the cache's order. */
  public static List<Path> lookup(Path cache, String name) {
    return table(cache).getOrDefault(name, List.of()).stream().map(Entry::file).toList();
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
    for (Entry entry : table(cache).getOrDefault(name, List.of())) {
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

  private static Map<String, List<Entry>> table(Path cache) {
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
    Map<String, List<Entry>> byName = parse(cache);
    parsed = new Parsed(cache, stamp, byName);
    return byName;
  }

  private static Map<String, List<Entry>> parse(Path cache) {
    Map<String, List<Entry>> byName = new HashMap<>();
    try {
      ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(cache)).order(ByteOrder.nativeOrder());
      int start = indexOf(bytes, NEW_MAGIC);
      if (start < 0 || start + NEW_HEADER > bytes.limit()) {
        return Map.of();
      }
      long entries = Integer.toUnsignedLong(bytes.getInt(start + NEW_MAGIC.length));
      List<String> hwcapsNames = hwcapsNames(bytes, start,
          Integer.toUnsignedLong(bytes.getInt(start + NEW_MAGIC.length + 12)));
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
        if (key != null && value != null) {
          byName.computeIfAbsent(key, k -> new ArrayList<>()).add(new Entry(Path.of(value), flags, hwcaps, hwcap));
        }
      }
    } catch (IOException | RuntimeException e) {
      // An unreadable or foreign cache answers nothing; the default folders are searched after it anyway.
      return Map.of();
    }
    byName.replaceAll((k, v) -> List.copyOf(v));
    return Map.copyOf(byName);
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
