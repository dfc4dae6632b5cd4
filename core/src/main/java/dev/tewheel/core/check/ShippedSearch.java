package dev.tewheel.core.check;

import dev.tewheel.elf.ElfFile;
import dev.tewheel.loader.OwnSearch;
import java.util.List;
import java.util.Optional;

/**
 * Where glibc finds a shipped library's DT_NEEDED inside the installed wheel_lib (DEPS-RESOLVE and SYMBOL-FLOOR), as
 * the loader model answers it ({@link OwnSearch}): the checks' {@link Subject} is the tree it searches.
 */
final class ShippedSearch {
  private ShippedSearch() {}

  /** The folders inside wheel_lib that glibc searches for the library's DT_NEEDED ({@link OwnSearch#folders}). */
  static List<String> folders(String path, ElfFile elf) {
    return OwnSearch.folders(path, elf);
  }

  /** The shipped file glibc would load for {@code needed} of {@code library} (read as {@code elf}), if any. */
  static Optional<SubjectFile> find(Subject subject, SubjectFile library, ElfFile elf, String needed) {
    return OwnSearch.find(library.path(), elf, needed, path -> subject.file(path).isPresent())
        .flatMap(subject::file);
  }

  /** The folder of a path inside wheel_lib; "" for wheel_lib itself. */
  static String folderOf(String path) {
    return OwnSearch.folderOf(path);
  }
}
