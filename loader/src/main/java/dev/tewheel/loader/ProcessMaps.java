package dev.tewheel.loader;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The lines of a process's {@code /proc/<pid>/maps} as the mapped objects they name: every copy of a shared object,
 * also those another component loaded with RTLD_LOCAL, which dlopen's RTLD_NOLOAD lookup by name may miss. The lines
 * are the input; the runtime reads its own process's.
 */
public final class ProcessMaps {
  private ProcessMaps() {}

  /** Every mapped file that looks like a shared object ({@code .so} in its name), in the order of the lines. */
  public static List<Path> sharedObjects(List<String> lines) {
    Set<Path> files = new LinkedHashSet<>();
    for (String line : lines) {
      int slash = line.indexOf(" /");
      if (slash < 0) {
        continue;
      }
      String name = line.substring(slash + 1).strip();
      if (name.endsWith(" (deleted)")) {
        name = name.substring(0, name.length() - " (deleted)".length());
      }
      String base = name.substring(name.lastIndexOf('/') + 1);
      if (base.contains(".so")) {
        files.add(Path.of(name));
      }
    }
    return new ArrayList<>(files);
  }

  /**
   * The file mapped at {@code address}, as the kernel gives it: {device major, device minor, inode}; empty when no
   * file is mapped there. The names in the maps may have changed since; these numbers are the mapping's own.
   */
  public static Optional<long[]> fileAt(List<String> lines, long address) {
    for (String line : lines) {
      // start-end perms offset major:minor inode [path]
      String[] fields = line.trim().split("\\s+", 6);
      int dash = fields[0].indexOf('-');
      if (fields.length < 5 || dash < 0) {
        continue;
      }
      try {
        long start = Long.parseUnsignedLong(fields[0].substring(0, dash), 16);
        long end = Long.parseUnsignedLong(fields[0].substring(dash + 1), 16);
        if (Long.compareUnsigned(address, start) < 0 || Long.compareUnsigned(address, end) >= 0) {
          continue;
        }
        int colon = fields[3].indexOf(':');
        long inode = Long.parseLong(fields[4]);
        return inode == 0 ? Optional.empty() : Optional.of(new long[] {Long.parseLong(fields[3].substring(0, colon),
            16), Long.parseLong(fields[3].substring(colon + 1), 16), inode});
      } catch (NumberFormatException | IndexOutOfBoundsException e) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  /**
   * Mapped shared objects by SONAME (files without one are left out), each list in the order of the lines; only
   * files whose name starts with one of {@code prefixes} are read (a JVM maps dozens of its own libraries, whose ELF
   * headers cost milliseconds to read when the process is cold). A prefix such as {@code libcudart} also matches a
   * renamed copy such as {@code libcudart-9335f6a2.so.12}, as auditwheel names the copies it bundles.
   */
  public static Map<String, List<Path>> bySoname(List<String> lines, List<String> prefixes) {
    Map<String, List<Path>> result = new LinkedHashMap<>();
    for (Path file : sharedObjects(lines)) {
      String name = file.getFileName().toString();
      if (prefixes.stream().noneMatch(name::startsWith)) {
        continue;
      }
      ElfFiles.soname(file).ifPresent(soname -> result.computeIfAbsent(soname, k -> new ArrayList<>()).add(file));
    }
    return result;
  }
}
