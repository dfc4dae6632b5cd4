package dev.tewheel.core.verify;

import dev.tewheel.core.check.Finding;
import java.util.Objects;

/**
 * A finding the release engineer accepts, with the reason that is printed each time it applies.
 *
 * @param checkId the check's ID
 * @param file when not null, only findings whose file contains this text
 * @param reason why it is accepted (required)
 */
public record Suppression(String checkId, String file, String reason) {
  public Suppression {
    Objects.requireNonNull(checkId, "checkId");
    if (reason == null || reason.isBlank()) {
      throw new IllegalArgumentException("the suppression of " + checkId + " has no reason: every suppression must"
          + " say why the finding is accepted, and the report prints it");
    }
  }

  /**
   * Parses {@code ID[@file]: reason}, e.g. {@code BAKED-BUILD-PATHS@config.h: te-runtime sets NCCL_EP_HOME}.
   *
   * @throws IllegalArgumentException naming the expected form
   */
  public static Suppression parse(String text) {
    int colon = text.indexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException("suppression '" + text + "' is not of the form ID[@file]: reason");
    }
    String head = text.substring(0, colon).trim();
    int at = head.indexOf('@');
    String id = at < 0 ? head : head.substring(0, at).trim();
    String file = at < 0 ? null : head.substring(at + 1).trim();
    return new Suppression(id, file == null || file.isEmpty() ? null : file, text.substring(colon + 1).trim());
  }

  /** Parses each entry with {@link #parse}; null is none. */
  public static java.util.List<Suppression> parseAll(java.util.List<String> entries) {
    return (entries == null ? java.util.List.<String>of() : entries).stream().map(Suppression::parse).toList();
  }

  /** Whether this suppression accepts the finding: same ID, and the file contains the given text if any. */
  public boolean matches(Finding finding) {
    return finding.checkId().equals(checkId) && (file == null || finding.file().contains(file));
  }
}
