package dev.tewheel.core.check.wheel;

import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.WheelCheck;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.zip.OverBoundException;
import dev.tewheel.core.zip.WheelArchive;
import dev.tewheel.core.zip.ZipBombBounds;
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

  /**
   * The finding for an archive refused before it was read (more entries than the bound), so there is no subject to
   * run on.
   */
  public static Finding refused(String whl, OverBoundException e) {
    return new WheelBombCheck().finding(whl, e.problem());
  }

  @Override
  protected List<Finding> check(WheelArchive wheel, Subject subject) {
    List<Finding> findings = new ArrayList<>();
    for (ZipBombBounds.Problem problem : bounds.problems(wheel.entries())) {
      findings.add(finding(problem.entry().map(e -> wheel.path() + "!" + e).orElse(wheel.path()), problem));
    }
    return findings;
  }

  private Finding finding(String file, ZipBombBounds.Problem problem) {
    String fix = problem.kind() == ZipBombBounds.Kind.ENTRY_COUNT
        ? "do not ship this archive: a TE wheel holds a few hundred entries; if it is a wheel you built, look for a"
            + " folder packed by mistake (a build tree, a cache) and rebuild without it"
        : "do not ship this archive: nothing legitimate compresses like this; if it is a wheel you built, look for a"
            + " padded or zero-filled file and rebuild without it";
    return finding(file, problem.found(), problem.expected(), fix);
  }
}
