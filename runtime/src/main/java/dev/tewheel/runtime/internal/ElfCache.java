package dev.tewheel.runtime.internal;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.loader.FileStamp;
import java.io.IOException;
import java.lang.ref.SoftReference;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ELF files te-runtime has read, kept while each file stays the same one ({@link FileStamp}):
 * {@code availability()} and {@code loadNcclEp()} read the same few files (the NCCL EP candidates, libnccl.so.2, the
 * dependencies' version definitions, mapped libraries' SONAMEs), and a cold process pays milliseconds per read.
 * Values are soft references, so a library with thousands of symbols is read again rather than kept when memory is
 * short. A failed read is not remembered.
 *
 * <p>A read by path stats the path and then opens it: renamed in between, the stamp is one file's and the facts
 * another's. So what decides a load (the SONAME and symbols of a library te-runtime opened, {@link PinnedLibrary})
 * comes only from entries whose stamp and bytes were both taken through one descriptor, never from a path read's
 * entry; a path read (the search, the prediction) is remembered only when the path names the same file after the
 * read as before.
 */
final class ElfCache {
  /** Facts read by path, for the search and the prediction. */
  private static final Map<Path, Entry> FILES = new ConcurrentHashMap<>();
  /** Facts read through an opened library's descriptor: stamp and bytes of one inode. */
  private static final Map<Path, Entry> OPENED = new ConcurrentHashMap<>();

  private ElfCache() {}

  /** {@link ElfFile#read(Path)}, from the cache when the file is unchanged. */
  public static ElfFile read(Path file) throws IOException {
    return get(file, true);
  }

  /** {@link ElfFile#readWithoutSymbols(Path)}, or a full read of the unchanged file made before. */
  public static ElfFile readWithoutSymbols(Path file) throws IOException {
    return get(file, false);
  }

  /**
   * The ELF facts of a library te-runtime opened ({@link PinnedLibrary}), read through its descriptor: from the cache
   * when the opened file is the one its path named when it was read before (same file key, size and modification
   * time), else read now and remembered for its path.
   */
  static ElfFile read(PinnedLibrary library, boolean symbols) throws IOException {
    return get(OPENED, library.file(), library.bytes(), symbols);
  }

  private static ElfFile get(Path file, boolean symbols) throws IOException {
    return get(FILES, file, null, symbols);
  }

  /** @param pinned the descriptor's name to read the bytes from, or null to read {@code file} itself */
  private static ElfFile get(Map<Path, Entry> cache, Path file, Path pinned, boolean symbols) throws IOException {
    Path source = pinned != null ? pinned : file;
    FileStamp stamp = FileStamp.of(source);
    Path key = file.toAbsolutePath().normalize();
    Entry entry = cache.get(key);
    if (entry != null && (entry.symbols || !symbols) && entry.stamp.equals(stamp)) {
      ElfFile elf = entry.elf.get();
      if (elf != null) {
        return elf;
      }
    }
    // Only a regular file is opened (a FIFO would block the open for ever); an unchanged stamp above means the same
    // inode as a regular file read before. A pinned library was fstat'ed as one when it was opened.
    if (pinned == null) {
      WheelLibPaths.regularFile(file);
    }
    ElfFile elf = symbols ? ElfFile.read(source) : ElfFile.readWithoutSymbols(source);
    if (pinned != null || stamp.equals(FileStamp.of(source))) {
      cache.put(key, new Entry(stamp, symbols, elf));
    }
    return elf;
  }

  private static final class Entry {
    final FileStamp stamp;
    final boolean symbols;
    final SoftReference<ElfFile> elf;

    Entry(FileStamp stamp, boolean symbols, ElfFile elf) {
      this.stamp = stamp;
      this.symbols = symbols;
      this.elf = new SoftReference<>(elf);
    }
  }
}
