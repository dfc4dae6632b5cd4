package dev.tewheel.core.diff;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import java.util.List;

/**
 * DIFF-INPUT: each side is a wheel_lib the diff reads whole and only inside itself: within the zip-bomb bounds
 * (more entries than a wheel may hold is refused before anything is read) and made of regular files (a symbolic link
 * is never followed, least of all out of its side's folder).
 */
final class InputDiff extends DiffRule {
  InputDiff() {
    super("DIFF-INPUT", Severity.ERROR, "each side is read whole and only inside itself: within WHEEL-BOMB's bounds,"
        + " regular files only (a link is never followed)");
  }

  @Override
  List<Finding> run(Comparison comparison) {
    return comparison.refused().stream().map(r -> finding(r.file(), r.found(), r.expected(), r.fix())).toList();
  }
}
