package dev.tewheel.core.wheel;

import dev.tewheel.core.zip.WheelArchive;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/** A wheel's {@code .dist-info} folder, told from its entries' names and its file name (PEP 427). */
public final class DistInfo {
  private DistInfo() {}

  /**
   * The only dist-info folder, or, when there are several, the one the file name points at
   * ({@code <dist>-<version>.dist-info}, compared as installers do); empty when none can be told.
   */
  public static Optional<String> folder(WheelArchive wheel) {
    SortedSet<String> folders = folders(wheel);
    try {
      WheelName name = WheelName.parse(wheel.fileName());
      for (String folder : folders) {
        if (name.isDistInfo(folder)) {
          return Optional.of(folder);
        }
      }
    } catch (IllegalArgumentException e) {
      // WHEEL-TAGS reports the name; the only folder stands in.
    }
    return folders.size() == 1 ? Optional.of(folders.first()) : Optional.empty();
  }

  /** The top-level folders named *.dist-info, from every entry's name. */
  public static SortedSet<String> folders(WheelArchive wheel) {
    SortedSet<String> folders = new TreeSet<>();
    for (WheelArchive.Entry entry : wheel.entries()) {
      int slash = entry.name().indexOf('/');
      if (slash > 0 && entry.name().substring(0, slash).endsWith(".dist-info")) {
        folders.add(entry.name().substring(0, slash));
      }
    }
    return folders;
  }
}
