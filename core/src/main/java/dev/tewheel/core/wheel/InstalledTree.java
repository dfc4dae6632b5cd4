package dev.tewheel.core.wheel;

import dev.tewheel.core.zip.WheelArchive;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Every entry of a wheel mapped to where it is installed ({@link InstalledPath}), and the order pip writes them in:
 * the wheel's root files as listed, then the data folders' files other than {@code <x>.data/scripts/…} as spelled,
 * then those scripts. When two entries land on one file, the later in that order is what stays installed.
 */
public final class InstalledTree {
  private final List<InstalledPath> paths;
  private final List<Integer> installOrder;

  private InstalledTree(List<InstalledPath> paths, List<Integer> installOrder) {
    this.paths = paths;
    this.installOrder = installOrder;
  }

  /** The installed tree of a wheel's entries, by their names in archive order. */
  public static InstalledTree of(List<WheelArchive.Entry> entries) {
    List<InstalledPath> paths = new ArrayList<>(entries.size());
    List<Integer> root = new ArrayList<>();
    List<Integer> data = new ArrayList<>();
    List<Integer> scripts = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      InstalledPath path = InstalledPath.of(entries.get(i).name());
      paths.add(path);
      if (path.location().isEmpty()) {
        continue;
      }
      String[] parts = path.zipName().split("/", 3);
      if (!parts[0].endsWith(".data")) {
        root.add(i);
      } else if (parts.length > 2 && parts[1].equals("scripts")) {
        scripts.add(i); // pip tells scripts by the name as spelled, and writes them last
      } else {
        data.add(i);
      }
    }
    List<Integer> order = new ArrayList<>(root);
    order.addAll(data);
    order.addAll(scripts);
    return new InstalledTree(Collections.unmodifiableList(paths), Collections.unmodifiableList(order));
  }

  /** Where entry {@code index} (of the archive's entries) is installed. */
  public InstalledPath get(int index) {
    return paths.get(index);
  }

  /** Each entry's installed path, by entry index. */
  public List<InstalledPath> paths() {
    return paths;
  }

  /** The indices of the entries pip writes as files, in the order it writes them. */
  public List<Integer> installOrder() {
    return installOrder;
  }
}
