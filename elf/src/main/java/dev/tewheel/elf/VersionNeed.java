package dev.tewheel.elf;

import java.util.List;

/**
 * One entry of DT_VERNEED: a file this object needs and the versions it needs from it.
 *
 * @param file the needed file's name, e.g. "libc.so.6"
 * @param versions version names in file order, e.g. ["GLIBC_2.34", "GLIBC_2.2.5"]
 */
public record VersionNeed(String file, List<String> versions) {
  public VersionNeed {
    versions = List.copyOf(versions);
  }
}
