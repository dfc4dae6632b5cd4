package dev.tewheel.runtime.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The shared objects mapped into this process, read from {@code /proc/self/maps}, grouped by DT_SONAME (read from
 * each file's ELF header once per file, size and modification time). This sees every copy, also those another
 * component loaded with RTLD_LOCAL, which dlopen's RTLD_NOLOAD lookup by name may miss.
 */
final class ProcMaps {
  static final Path MAPS = Path.of("/proc/self/maps");


  private ProcMaps() {}

  /** Every mapped file that looks like a shared object ({@code .so} in its name), in the order of the maps. */
  public static List<Path> sharedObjects() {
    Set<Path> files = new LinkedHashSet<>();
    List<String> lines;
    try {
      lines = Files.readAllLines(MAPS, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return List.of();
    }
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
  static Optional<long[]> fileAt(long address) {
    List<String> lines;
    try {
      lines = Files.readAllLines(MAPS, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return Optional.empty();
    }
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
   * Mapped shared objects by SONAME (files without one are left out), each list in the order of the maps; only files
   * whose name starts with one of {@code prefixes} are read (the JVM maps dozens of its own libraries, whose ELF
   * headers cost milliseconds to read when the process is cold). A prefix such as {@code libcudart} also matches a
   * renamed copy such as {@code libcudart-9335f6a2.so.12}, as auditwheel names the copies it bundles.
   */
  public static Map<String, List<Path>> bySoname(List<String> prefixes) {
    Map<String, List<Path>> result = new LinkedHashMap<>();
    for (Path file : sharedObjects()) {
      String name = file.getFileName().toString();
      if (prefixes.stream().noneMatch(name::startsWith)) {
        continue;
      }
      soname(file).ifPresent(soname -> result.computeIfAbsent(soname, k -> new ArrayList<>()).add(file));
    }
    return result;
  }

  /** The DT_SONAME of a file, read once while the file stays the same ({@link ElfCache}); empty if unreadable. */
  public static Optional<String> soname(Path file) {
    try {
      return ElfCache.readWithoutSymbols(file).soname();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
