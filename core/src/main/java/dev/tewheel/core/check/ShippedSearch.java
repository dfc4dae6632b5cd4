package dev.tewheel.core.check;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.elf.ElfFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where glibc finds a shipped library's DT_NEEDED inside the installed wheel_lib (DEPS-RESOLVE and SYMBOL-FLOOR):
 * only in the folders its own search path names relative to {@code $ORIGIN} ({@link WheelLibPaths#ownSearchPath}:
 * DT_RUNPATH, else DT_RPATH). An empty entry is the current working directory and an absolute one a folder of the
 * build machine, neither of them a shipped folder.
 */
final class ShippedSearch {
  private ShippedSearch() {}

  /**
   * The folders inside wheel_lib that glibc searches for the library's DT_NEEDED: its $ORIGIN-relative search-path
   * entries (TE-RUNPATH-ORIGIN reports the others: absolute, relative, empty), as paths inside wheel_lib ("" for
   * wheel_lib itself).
   */
  static List<String> folders(String path, ElfFile elf) {
    String own = folderOf(path);
    List<String> folders = new ArrayList<>();
    for (String entry : WheelLibPaths.ownSearchPath(elf)) {
      Optional<String> rest = WheelLibPaths.originRelative(entry);
      if (rest.isEmpty()) {
        continue;
      }
      String folder = WheelLibPaths.normalize(own + "/" + rest.get());
      if (folder != null && !folders.contains(folder)) {
        folders.add(folder);
      }
    }
    return folders;
  }

  /** The shipped file glibc would load for {@code needed} of {@code library} (read as {@code elf}), if any. */
  static Optional<SubjectFile> find(Subject subject, SubjectFile library, ElfFile elf, String needed) {
    if (needed.contains("/")) {
      return Optional.empty(); // a path is opened as it is, never searched
    }
    for (String folder : folders(library.path(), elf)) {
      Optional<SubjectFile> file = subject.file(folder.isEmpty() ? needed : folder + "/" + needed);
      if (file.isPresent()) {
        return file;
      }
    }
    return Optional.empty();
  }

  /** The folder of a path inside wheel_lib; "" for wheel_lib itself. */
  static String folderOf(String path) {
    return path.contains("/") ? path.substring(0, path.lastIndexOf('/')) : "";
  }
}
