package dev.tewheel.core.release;

import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.gate.Rule;
import dev.tewheel.core.gate.RuleSet;
import java.util.ArrayList;
import java.util.List;

/**
 * te:verify-release's gate: RELEASE-MATRIX runs on the release; every check's ID stays known, so one list of
 * severities and suppressions serves the wheels' gates and the release's.
 */
public final class ReleaseRules extends RuleSet<Release> {
  public static final ReleaseMatrix MATRIX = new ReleaseMatrix();
  public static final ReleaseRules RULES = new ReleaseRules();

  private ReleaseRules() {
    super("check", List.of(MATRIX), known(), (rule, release) -> ((ReleaseMatrix) rule).run(release));
  }

  private static List<Rule> known() {
    List<Rule> all = new ArrayList<>(CheckCatalogue.all());
    all.add(MATRIX);
    return all;
  }

  /** Every rule a release report lists: the catalogue's checks, then RELEASE-MATRIX. */
  static List<Rule> reported() {
    return known();
  }
}
