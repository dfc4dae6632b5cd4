package dev.tewheel.core.diff;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Rule;
import dev.tewheel.core.gate.RuleSet;
import java.util.List;

/** Every diff rule, once, in report order: what te:diff-wheel's gate judges by. */
public final class DiffRules implements RuleSet<Comparison> {
  public static final DiffRules RULES = new DiffRules();

  private final List<DiffRule> all = List.of(new FilesDiff(), new SonameDiff(), new NeededDiff(), new ExportsDiff(),
      new GlibcDiff(), new BindNowDiff(), new GpuArchsDiff(), new SizeDiff());

  private DiffRules() {}

  @Override
  public String noun() {
    return "diff rule";
  }

  @Override
  public List<DiffRule> rules() {
    return all;
  }

  @Override
  public List<Finding> run(Rule rule, Comparison comparison) {
    return ((DiffRule) rule).run(comparison);
  }
}
