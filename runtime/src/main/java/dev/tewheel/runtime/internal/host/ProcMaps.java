package dev.tewheel.runtime.internal.host;

import dev.tewheel.loader.ProcessMaps;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** This process's {@code /proc/self/maps}, read now and handed to the loader model's {@link ProcessMaps}. */
public final class ProcMaps {
  static final Path MAPS = Path.of("/proc/self/maps");

  private ProcMaps() {}

  /** {@link ProcessMaps#fileAt} of this process. */
  public static Optional<long[]> fileAt(long address) {
    return ProcessMaps.fileAt(lines(), address);
  }

  /** {@link ProcessMaps#bySoname} of this process. */
  public static Map<String, List<Path>> bySoname(List<String> prefixes) {
    return ProcessMaps.bySoname(lines(), prefixes);
  }

  private static List<String> lines() {
    try {
      return Files.readAllLines(MAPS, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return List.of();
    }
  }
}
