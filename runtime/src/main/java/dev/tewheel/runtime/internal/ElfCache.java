package dev.tewheel.runtime.internal;

import dev.tewheel.elf.ElfFile;
import java.io.IOException;
import java.lang.ref.SoftReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ELF files te-runtime has read, kept while each file stays the same one (file key, size and modification time):
 * {@code availability()} and {@code loadNcclEp()} read the same few files (the NCCL EP candidates, libnccl.so.2, the
 * dependencies' version definitions, mapped libraries' SONAMEs), and a cold process pays milliseconds per read.
 * Values are soft references, so a library with thousands of symbols is read again rather than kept when memory is
 * short. A failed read is not remembered.
 */
public final class ElfCache {
  private static final Map<Path, Entry> FILES = new ConcurrentHashMap<>();

  private ElfCache() {}

  /** {@link ElfFile#read(Path)}, from the cache when the file is unchanged. */
  public static ElfFile read(Path file) throws IOException {
    return get(file, true);
  }

  /** {@link ElfFile#readWithoutSymbols(Path)}, or a full read of the unchanged file made before. */
  public static ElfFile readWithoutSymbols(Path file) throws IOException {
    return get(file, false);
  }

  private static ElfFile get(Path file, boolean symbols) throws IOException {
    BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
    Path key = file.toAbsolutePath().normalize();
    Entry entry = FILES.get(key);
    if (entry != null && (entry.symbols || !symbols) && entry.sameFile(attributes)) {
      ElfFile elf = entry.elf.get();
      if (elf != null) {
        return elf;
      }
    }
    ElfFile elf = symbols ? ElfFile.read(file) : ElfFile.readWithoutSymbols(file);
    FILES.put(key, new Entry(attributes, symbols, elf));
    return elf;
  }

  // A class, not a record: a record's generated equals would bootstrap on te-runtime's cold path.
  private static final class Entry {
    final Object fileKey;
    final long size;
    final long modified;
    final boolean symbols;
    final SoftReference<ElfFile> elf;

    Entry(BasicFileAttributes attributes, boolean symbols, ElfFile elf) {
      this.fileKey = attributes.fileKey();
      this.size = attributes.size();
      this.modified = attributes.lastModifiedTime().toMillis();
      this.symbols = symbols;
      this.elf = new SoftReference<>(elf);
    }

    boolean sameFile(BasicFileAttributes attributes) {
      return Objects.equals(fileKey, attributes.fileKey()) && size == attributes.size()
          && modified == attributes.lastModifiedTime().toMillis();
    }
  }
}
