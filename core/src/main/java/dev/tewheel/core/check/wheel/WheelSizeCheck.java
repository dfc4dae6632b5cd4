package dev.tewheel.core.check.wheel;

import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.WheelCheck;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.zip.WheelArchive;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A wheel stays within its upload budget: PyPI refuses a file above its default per-file limit (100 MiB) unless the
 * project's limit was raised, as TE's was. Without {@code maxWheelSize} a wheel above that limit is a warning; with
 * it, the configured budget replaces the default and a wheel above it is an error (a project with a raised limit
 * would otherwise have to suppress the warning, and with it the budget's error). The finding gives the compressed
 * and uncompressed sizes and the largest entries, what a release engineer trims first.
 */
public final class WheelSizeCheck extends WheelCheck {
  /** PyPI's default limit on one uploaded file. */
  static final long PYPI_DEFAULT_LIMIT = 100L << 20;
  private static final int LARGEST = 3;

  public WheelSizeCheck() {
    super("WHEEL-SIZE", "the wheel stays within maxWheelSize, else within PyPI's default upload limit (100 MiB,"
        + " a warning)", Severity.WARNING);
  }

  @Override
  protected List<Finding> check(WheelArchive wheel, Subject subject) {
    long compressed;
    try {
      compressed = Files.size(Path.of(wheel.path()));
    } catch (IOException e) {
      return List.of(); // the reader has just opened it; WHEEL-ZIP speaks for an archive that cannot be read
    }
    Long budget = subject.settings().maxWheelSize();
    long limit = budget != null ? budget : PYPI_DEFAULT_LIMIT;
    if (compressed <= limit) {
      return List.of();
    }
    long uncompressed = wheel.entries().stream().mapToLong(WheelArchive.Entry::size).sum();
    String largest = wheel.entries().stream().filter(e -> !e.directory())
        .sorted(Comparator.comparingLong(WheelArchive.Entry::compressedSize).reversed()).limit(LARGEST)
        .map(e -> e.name() + " " + format(e.compressedSize()) + " (" + format(e.size()) + " uncompressed)")
        .collect(Collectors.joining(", "));
    String found = "a wheel of " + format(compressed) + " (" + format(uncompressed) + " uncompressed); largest"
        + " entries: " + largest;
    if (budget != null) {
      return List.of(new Finding(id(), Severity.ERROR, wheel.path(), found, "at most " + format(budget)
          + " (maxWheelSize)", "ship fewer GPU architectures or less device code (the largest entries above), or"
          + " raise maxWheelSize if the index accepts a larger file"));
    }
    return List.of(finding(wheel.path(), found, "at most " + format(PYPI_DEFAULT_LIMIT) + ", PyPI's default upload"
        + " limit per file", "ship fewer GPU architectures or less device code (the largest entries above); or, if"
        + " the project's PyPI limit was raised, set maxWheelSize to it"));
  }

  /** e.g. 153.2 MiB; below 1 KiB in bytes. */
  static String format(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double value = bytes;
    int unit = -1;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
  }
}
