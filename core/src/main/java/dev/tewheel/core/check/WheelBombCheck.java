package dev.tewheel.core.check;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.wheel.WheelArchive;
import dev.tewheel.core.wheel.ZipBombBounds;
import java.util.ArrayList;
import java.util.List;

/**
 * A wheel is no zip bomb: the sizes its entries declare stay within {@link ZipBombBounds}, judged from the central
 * directory before anything is inflated. The wheel reader applies the same bounds and refuses to inflate what they
 * flag, so the other checks never unpack a bomb; this check reports why.
 */
public final class WheelBombCheck extends WheelCheck {
  private final ZipBombBounds bounds;

  public WheelBombCheck() {
    this(ZipBombBounds.DEFAULTS);
  }

  public WheelBombCheck(ZipBombBounds bounds) {
    super("WHEEL-BOMB", "the entries' declared sizes and compression ratios stay within bounds (no zip bomb)",
        Severity.ERROR);
    this.bounds = bounds;
  }

  @Override
  List<Finding> check(WheelArchive wheel, Subject subject) {
    List<Finding> findings = new ArrayList<>();
    for (ZipBombBounds.Problem problem : bounds.problems(wheel.entries())) {
      findings.add(finding(problem.entry().map(e -> wheel.path() + "!" + e).orElse(wheel.path()), problem.found(),
          problem.expected(), "do not ship this archive: nothing legitimate compresses like this; if it is a wheel"
              + " you built, look for a padded or zero-filled file and rebuild without it"));
    }
    return findings;
  }
}
