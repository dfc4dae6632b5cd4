package dev.tewheel.loader;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.elf.ElfFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Where glibc finds an object's DT_NEEDED among the files installed with it (a wheel's tree), whatever the host:
 * only in the folders its own search path names relative to {@code $ORIGIN} ({@link SearchPaths#ownSearchPath}:
 * DT_RUNPATH, else DT_RPATH). An empty entry is the current working directory and an absolute one a folder of the
 * build machine, neither of them a folder of the tree; the environment and the ld.so.cache add none of its folders
 * either. Paths are '/'-separated and relative to the tree's root ("" is the root).
 */
public final class OwnSearch {
  private OwnSearch() {}

  /**
   * The folders of the tree that glibc searches for the DT_NEEDED names of the object at {@code path}: its
   * {@code $ORIGIN}-relative search-path entries in order, without repeats, as paths inside the tree. An entry that
   * leads out of the tree is left out.
   */
  public static List<String> folders(String path, ElfFile elf) {
    String own = folderOf(path);
    List<String> folders = new ArrayList<>();
    for (String entry : SearchPaths.ownSearchPath(elf)) {
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

  /**
   * The path in the tree that glibc would load for {@code needed} of the object at {@code path}: the first of
   * {@link #folders} that holds it; empty when none does, and for a name with a '/' (opened as it is, never
   * searched).
   *
   * @param holds whether the tree holds a file at a path
   */
  public static Optional<String> find(String path, ElfFile elf, String needed, Predicate<String> holds) {
    if (needed.contains("/")) {
      return Optional.empty();
    }
    for (String folder : folders(path, elf)) {
      String candidate = folder.isEmpty() ? needed : folder + "/" + needed;
      if (holds.test(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** Whether glibc ignores the object's DT_RPATH: it has a DT_RUNPATH too. */
  public static boolean rpathIgnored(ElfFile elf) {
    return !elf.runpath().isEmpty() && !elf.rpath().isEmpty();
  }

  /** The folder of a path inside the tree; "" for the root. */
  public static String folderOf(String path) {
    return path.contains("/") ? path.substring(0, path.lastIndexOf('/')) : "";
  }
}
