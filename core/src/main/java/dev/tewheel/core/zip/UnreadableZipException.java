package dev.tewheel.core.zip;

import java.io.IOException;
import java.util.List;

/**
 * A file that no zip reader can open as one archive (no end record, a central directory that is not there): the
 * gate reports it as a WHEEL-ZIP finding, since pip refuses such a wheel too, rather than giving no verdict.
 */
public final class UnreadableZipException extends IOException {
  private final transient List<ZipLayout.Problem> problems;

  UnreadableZipException(String message, List<ZipLayout.Problem> problems, Throwable cause) {
    super(message, cause);
    this.problems = List.copyOf(problems);
  }

  /** What {@link ZipLayout} found in the file's bytes; may be empty when the layout itself looked sound. */
  public List<ZipLayout.Problem> problems() {
    return problems;
  }
}
