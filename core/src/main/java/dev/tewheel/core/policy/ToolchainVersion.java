package dev.tewheel.core.policy;

import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.VersionNeed;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A version a library needs from glibc or the C++ runtime, e.g. {@code GLIBCXX_3.4.29}: the family the platform tag
 * bounds (GLIBC, GLIBCXX, CXXABI) and its dotted number. PLATFORM holds each to the tag's ceiling; DIFF-GLIBC
 * compares each family's highest between releases.
 *
 * @param family GLIBC, GLIBCXX or CXXABI
 * @param version e.g. 3.4.29
 */
public record ToolchainVersion(String family, String version) {
  private static final Pattern NAME = Pattern.compile("(GLIBC|GLIBCXX|CXXABI)_(\\d+(?:\\.\\d+)*)");

  /** The version a version-need name stands for; empty for GLIBC_PRIVATE and the like, which bound nothing. */
  public static Optional<ToolchainVersion> parse(String name) {
    Matcher m = NAME.matcher(name);
    return m.matches() ? Optional.of(new ToolchainVersion(m.group(1), m.group(2))) : Optional.empty();
  }

  /** The highest version the library needs per family: GLIBC to 2.34, and so on; a family it needs nothing of is absent. */
  public static Map<String, String> ceilings(ElfFile elf) {
    Map<String, String> result = new TreeMap<>();
    for (VersionNeed need : elf.versionNeeds()) {
      for (String name : need.versions()) {
        parse(name).ifPresent(v -> result.merge(v.family(), v.version(), (p, q) -> newer(p, q) ? p : q));
      }
    }
    return result;
  }

  /** Whether dotted version {@code a} is newer than {@code b} ("2.34" is newer than "2.28"). */
  public static boolean newer(String a, String b) {
    return PlatformTag.compareVersions(a, b) > 0;
  }

  @Override
  public String toString() {
    return family + "_" + version;
  }
}
