package dev.tewheel.core.diff;

import dev.tewheel.core.gate.RuleSet;
import java.util.List;

/** Every diff rule, once, in report order: what te:diff-wheel's gate judges by. */
public final class DiffRules extends RuleSet<Comparison> {
  /** Every diff rule, in report order (declared before {@link #RULES}, which is made of them). */
  static final List<DiffRule> ALL = List.of(new InputDiff(), new FilesDiff(), new ReadableDiff(), new SonameDiff(),
      new NeededDiff(),
      new ExportsDiff(), new GlibcDiff(), new BindNowDiff(), new GpuArchsDiff(), new SizeDiff());

  public static final DiffRules RULES = new DiffRules();

  private DiffRules() {
    super("diff rule", ALL, ALL, (rule, comparison) -> ((DiffRule) rule).run(comparison));
  }
}
