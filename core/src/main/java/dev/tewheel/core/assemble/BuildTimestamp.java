package dev.tewheel.core.assemble;

import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * {@code project.build.outputTimestamp} as Maven defines it: ISO-8601 with an offset, or whole seconds since the
 * epoch; a single character (Maven's way to switch it off) or nothing means none.
 */
public final class BuildTimestamp {
  private BuildTimestamp() {}

  /** The configured timestamp, else {@code SOURCE_DATE_EPOCH} (seconds, as reproducible-builds.org defines it). */
  public static Optional<FileTime> resolve(String configured) {
    Optional<FileTime> given = parse(configured);
    if (given.isPresent()) {
      return given;
    }
    String epoch = System.getenv("SOURCE_DATE_EPOCH");
    return epoch == null || epoch.isBlank() ? Optional.empty() : parse(epoch.trim());
  }

  public static Optional<FileTime> parse(String value) {
    if (value == null || value.trim().length() < 2) {
      return Optional.empty();
    }
    String text = value.trim();
    try {
      if (text.chars().allMatch(Character::isDigit)) {
        return Optional.of(FileTime.from(Instant.ofEpochSecond(Long.parseLong(text))));
      }
      return Optional.of(FileTime.from(OffsetDateTime.parse(text).toInstant()));
    } catch (DateTimeParseException | NumberFormatException e) {
      throw new IllegalArgumentException("project.build.outputTimestamp '" + value + "' is neither ISO-8601 with an"
          + " offset (2026-01-01T00:00:00Z) nor seconds since 1970", e);
    }
  }
}
