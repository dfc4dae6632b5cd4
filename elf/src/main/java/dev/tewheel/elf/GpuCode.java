package dev.tewheel.elf;

import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The CUDA device code a library carries: every entry of the fat binaries in its {@code .nv_fatbin} and
 * {@code __nv_relfatbin} sections, in file order.
 *
 * @param sectionHeaders whether the file has section headers; without them the fat binaries cannot be found (they
 *     are located by section name, as cuobjdump does), so an empty list then means "unknown", not "none"
 * @param containers how many fat-binary containers were walked
 * @param entries every entry, in file order
 */
public record GpuCode(boolean sectionHeaders, int containers, List<FatBinaryEntry> entries) {
  public GpuCode {
    entries = List.copyOf(entries);
  }

  /** Whether the library carries device code at all. */
  public boolean isEmpty() {
    return entries.isEmpty();
  }

  /** The SASS entries' names, sorted and unique: e.g. [sm_100f, sm_80, sm_90a]. */
  public SortedSet<String> sass() {
    return names(FatBinaryEntry.Kind.SASS);
  }

  /** The PTX entries' names, sorted and unique: e.g. [compute_120]. */
  public SortedSet<String> ptx() {
    return names(FatBinaryEntry.Kind.PTX);
  }

  private SortedSet<String> names(FatBinaryEntry.Kind kind) {
    SortedSet<String> names = new TreeSet<>(GpuCode::compareArchNames);
    for (FatBinaryEntry e : entries) {
      if (e.kind() == kind) {
        names.add(e.name());
      }
    }
    return names;
  }

  /** Orders sm_80 before sm_90 before sm_100 (by number, then suffix), not as plain strings would. */
  public static int compareArchNames(String a, String b) {
    int na = number(a);
    int nb = number(b);
    return na != nb ? Integer.compare(na, nb) : a.compareTo(b);
  }

  private static int number(String name) {
    int start = name.indexOf('_') + 1;
    int end = start;
    while (end < name.length() && Character.isDigit(name.charAt(end))) {
      end++;
    }
    return end > start && end - start < 9 ? Integer.parseInt(name.substring(start, end)) : Integer.MAX_VALUE;
  }
}
