package dev.tewheel.loader;

import java.util.ArrayList;
import java.util.List;

/**
 * The rule for search lists ({@code PATH}, {@code LD_LIBRARY_PATH}, RPATH and RUNPATH entries): an entry that is
 * empty or relative names no folder of its own; it means the current folder, or one below it, wherever the process
 * happens to run. glibc's dlopen and a shell search such entries; te-wheel, when it looks for a program or a library
 * itself (te-runtime to run or load it, doctor to report it), skips them and says so (docs/runtime.md, "Nothing runs
 * from an unnamed folder"): a report run in a folder someone else filled must not run what they put there.
 */
public final class UnnamedFolders {
  private UnnamedFolders() {}

  /** Whether te-wheel may take a file from {@code folder}: only an absolute folder names one. */
  public static boolean named(String folder) {
    return folder.startsWith("/");
  }

  /**
   * The entries of a search list that name no folder, in order and once each ({@code value} split as the list's
   * reader splits it).
   *
   * @param separators {@code ":"} for PATH, {@code ":;"} for LD_LIBRARY_PATH (glibc splits on both)
   */
  static List<String> in(String value, String separators) {
    List<String> entries = new ArrayList<>();
    if (value == null || value.isEmpty()) {
      return entries; // unset or empty: no entry at all
    }
    int start = 0;
    for (int i = 0; i <= value.length(); i++) {
      if (i == value.length() || separators.indexOf(value.charAt(i)) >= 0) {
        entries.add(value.substring(start, i));
        start = i + 1;
      }
    }
    return unnamed(entries);
  }

  /** The entries of a list, already split, that name no folder, in order and once each. */
  static List<String> unnamed(List<String> entries) {
    List<String> unnamed = new ArrayList<>();
    for (String entry : entries) {
      if (!named(entry) && !unnamed.contains(entry)) {
        unnamed.add(entry);
      }
    }
    return unnamed;
  }

  /** {@code the PATH entry '' (the current folder)}, {@code the LD_LIBRARY_PATH entry 'lib' (relative to ...)}. */
  public static String describe(String list, String entry) {
    return "the " + list + " entry '" + entry + "' (" + (entry.isEmpty() || entry.equals(".")
        ? "the current folder" : "relative, so a folder below the current one") + ")";
  }

  /**
   * The warning for each unnamed entry of {@code list}: what te-wheel does with it, and the fix.
   *
   * @param what what te-wheel looks for in the list ("programs", "libraries")
   */
  public static List<String> warnings(String list, String value, String separators, String what) {
    return warnings(list, in(value, separators), what);
  }

  /** As {@link #warnings(String, String, String, String)}, for a list's entries already split by its reader. */
  public static List<String> warnings(String list, List<String> entries, String what) {
    List<String> warnings = new ArrayList<>();
    for (String entry : unnamed(entries)) {
      warnings.add(describe(list, entry) + " is skipped: te-wheel runs and loads nothing from a folder not named by"
          + " an absolute path, so it looks for " + what + " only in the other entries. Name the folder by its"
          + " absolute path, or remove the entry");
    }
    return warnings;
  }
}
