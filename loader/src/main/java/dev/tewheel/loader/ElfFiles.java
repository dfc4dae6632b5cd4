package dev.tewheel.loader;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ElfFormatException;
import java.io.IOException;
import java.lang.ref.SoftReference;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ELF files the model has read, kept while each file stays the same one ({@link FileStamp}): a search reads the
 * same few files again and again (a closure's members, mapped libraries' SONAMEs, the dependencies' version
 * definitions), and a cold process pays milliseconds per read. Values are soft references, so a library with
 * thousands of symbols is read again rather than kept when memory is short. A failed read is not remembered.
 *
 * <p>A read by path stats the path and then opens it: renamed in between, the stamp is one file's and the facts
 * another's. So what decides a load (the SONAME and symbols of a library te-runtime opened and reads through its
 * descriptor) comes only from entries whose stamp and bytes were both taken through that descriptor, never from a
 * path read's entry; a path read (the search, the prediction) is remembered only when the path names the same file
 * after the read as before.
 */
public final class ElfFiles {
  /** Files up to this size are always read with their symbol tables (see {@link #readWithoutSymbols}). */
  static final long SMALL_FILE = 16L << 20;
  /** Facts read by path, for the search and the prediction. */
  private static final Map<Path, Entry> FILES = new ConcurrentHashMap<>();
  /** Facts read through an opened descriptor: stamp and bytes of one inode. */
  private static final Map<Path, Entry> OPENED = new ConcurrentHashMap<>();

  private ElfFiles() {}

  /** {@link ElfFile#read(Path)}, from the cache when the file is unchanged. */
  public static ElfFile read(Path file) throws IOException {
    return read(file, null, true);
  }

  /**
   * {@link ElfFile#readWithoutSymbols(Path)}, or a full read of the unchanged file made before. A file of at most
   * {@value #SMALL_FILE} bytes is read in full at once: such a file (libc.so.6, libstdc++, a launcher) is nearly
   * always a member of a load's scope, whose symbols the prediction or the floor check reads next, and its symbol
   * tables cost a few reads where a second parse costs the whole file's again. A larger one (a GPU library of
   * hundreds of megabytes, whose symbol table can hold tens of thousands of names) is read with its symbols only
   * when they are asked for.
   */
  public static ElfFile readWithoutSymbols(Path file) throws IOException {
    return read(file, null, false);
  }

  /**
   * The ELF facts of {@code file}, remembered under its path.
   *
   * @param pinned a name to read the bytes from instead (an opened descriptor's {@code /proc/self/fd/N}, already
   *     checked to be a regular file), or null to read {@code file} itself, which must be a regular file
   * @param symbols whether the symbol tables are read too
   */
  public static ElfFile read(Path file, Path pinned, boolean symbols) throws IOException {
    Path source = pinned != null ? pinned : file;
    FileStamp stamp = FileStamp.of(source);
    Path key = file.toAbsolutePath().normalize();
    Map<Path, Entry> cache = pinned != null ? OPENED : FILES;
    Entry entry = cache.get(key);
    if (entry != null && (entry.symbols || !symbols) && entry.stamp.equals(stamp)) {
      ElfFile elf = entry.elf.get();
      if (elf != null) {
        return elf;
      }
    }
    // Only a regular file is opened (a FIFO would block the open for ever); an unchanged stamp above means the same
    // inode as a regular file read before.
    if (pinned == null) {
      WheelLibPaths.regularFile(file);
    }
    ElfFile elf = symbols ? ElfFile.read(source) : stamp.size() <= SMALL_FILE ? readSmall(source)
        : ElfFile.readWithoutSymbols(source);
    if (pinned != null || stamp.equals(FileStamp.of(source))) {
      cache.put(key, new Entry(stamp, elf.hasDynamicSymbols(), elf));
    }
    return elf;
  }

  /** A full read, or one without symbols when only the symbol tables are broken: the caller did not ask for them. */
  private static ElfFile readSmall(Path source) throws IOException {
    try {
      return ElfFile.read(source);
    } catch (ElfFormatException e) {
      return ElfFile.readWithoutSymbols(source);
    }
  }

  /** The DT_SONAME of a file; empty when it has none or cannot be read as ELF. */
  public static Optional<String> soname(Path file) {
    try {
      return readWithoutSymbols(file).soname();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
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
