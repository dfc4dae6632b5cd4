package dev.tewheel.runtime.internal;

import dev.tewheel.elf.ElfFile;
import dev.tewheel.loader.ElfFiles;
import java.io.IOException;
import java.nio.file.Path;

/** The loader model's ELF cache ({@link ElfFiles}), and the read of a library te-runtime pinned by descriptor. */
final class ElfCache {
  private ElfCache() {}

  public static ElfFile read(Path file) throws IOException {
    return ElfFiles.read(file);
  }

  public static ElfFile readWithoutSymbols(Path file) throws IOException {
    return ElfFiles.readWithoutSymbols(file);
  }

  /**
   * The ELF facts of a library te-runtime opened ({@link PinnedLibrary}), read through its descriptor: from the cache
   * when the opened file is the one its path named when it was read before, else read now and remembered for its
   * path. A pinned library was fstat'ed as a regular file when it was opened.
   */
  static ElfFile read(PinnedLibrary library, boolean symbols) throws IOException {
    return ElfFiles.read(library.file(), library.bytes(), symbols);
  }
}
