package dev.tewheel.elf;

import java.util.List;
import java.util.Set;

/**
 * One entry of DT_VERNEED: a file this object needs and the versions it needs from it.
 *
 * @param file the needed file's name, e.g. "libc.so.6"
 * @param versions version names in file order, e.g. ["GLIBC_2.34", "GLIBC_2.2.5"]
 * @param weak the versions whose Vernaux carries VER_FLG_WEAK: glibc loads without them (it only warns, and only
 *     when asked to be verbose)
 * @param hidden the versions whose Vernaux index carries the hidden bit: glibc then binds such a reference only to a
 *     definition of exactly that version, never to an unversioned one
 */
public record VersionNeed(String file, List<String> versions, Set<String> weak, Set<String> hidden) {
  /** Vna_flags: a version that may be missing. */
  static final int VER_FLG_WEAK = 2;

  public VersionNeed {
    versions = List.copyOf(versions);
    weak = Set.copyOf(weak);
    hidden = Set.copyOf(hidden);
  }

  /** A need whose versions are all required and none hidden, as linkers write them. */
  public VersionNeed(String file, List<String> versions) {
    this(file, versions, Set.of(), Set.of());
  }
}
