package dev.tewheel.core.zip;

import java.io.IOException;

/**
 * An input refused before it is read because it is over a bound of {@link ZipBombBounds} that must hold before any
 * reader makes an object per entry (the entry count): a wheel, or a folder given as a floor or a diff side. Verify
 * reports it as a WHEEL-BOMB finding, SYMBOL-FLOOR and diff-wheel as a problem of that input.
 */
public final class OverBoundException extends IOException {
  private final transient ZipBombBounds.Problem problem;

  public OverBoundException(String message, ZipBombBounds.Problem problem) {
    super(message);
    this.problem = problem;
  }

  /** The bound the input is over. */
  public ZipBombBounds.Problem problem() {
    return problem;
  }
}
