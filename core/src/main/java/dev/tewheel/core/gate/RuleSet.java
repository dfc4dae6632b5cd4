package dev.tewheel.core.gate;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * The rules one gate judges by, and how to run them on a subject: the check catalogue on a wheel_lib, the diff
 * rules on a comparison of two releases.
 *
 * @param <S> what the rules examine
 */
public class RuleSet<S> {
  private final String noun;
  private final List<? extends Rule> rules;
  private final List<? extends Rule> known;
  private final BiFunction<Rule, S, List<Finding>> runner;

  /**
   * @param noun what one rule is called in messages: "check", "diff rule"
   * @param rules the rules that run, in report order
   * @param known every rule whose ID may be named (a subset that runs still knows the others' IDs)
   * @param runner one rule's findings on a subject, each at the severity the rule gave it
   */
  protected RuleSet(String noun, List<? extends Rule> rules, List<? extends Rule> known,
      BiFunction<Rule, S, List<Finding>> runner) {
    this.noun = noun;
    this.rules = List.copyOf(rules);
    this.known = List.copyOf(known);
    this.runner = runner;
  }

  /** What one rule is called in messages: "check", "diff rule". */
  public final String noun() {
    return noun;
  }

  /** Every rule that runs, in report order. */
  public List<? extends Rule> rules() {
    return rules;
  }

  /** The findings of one of {@link #rules()}, each at the severity the rule gave it; none when it holds. */
  public final List<Finding> run(Rule rule, S subject) {
    return runner.apply(rule, subject);
  }

  /** Every finding of every rule, in rule order. */
  public final List<Finding> run(S subject) {
    List<Finding> findings = new ArrayList<>();
    rules.forEach(rule -> findings.addAll(run(rule, subject)));
    return findings;
  }

  /** The same rules with each finding passed through {@code shown} before the gate judges it. */
  public final RuleSet<S> mapFindings(UnaryOperator<Finding> shown) {
    return new RuleSet<>(noun, rules, known, (rule, subject) -> run(rule, subject).stream().map(shown).toList());
  }

  /** The known rule with this ID. */
  public final Optional<Rule> byId(String id) {
    return known.stream().<Rule>map(r -> r).filter(r -> r.id().equals(id)).findFirst();
  }

  /**
   * The one place an unknown rule ID (a severity override's, a suppression's) is reported, before any rule runs: a
   * typo must not cost a full verification first.
   *
   * @throws IllegalArgumentException naming the unknown ID and listing the valid ones
   */
  public final Rule requireKnown(String id) {
    return byId(id).orElseThrow(() -> new IllegalArgumentException("no " + noun + " has the ID '" + id + "'; the "
        + noun + " IDs are " + known.stream().map(Rule::id).collect(Collectors.joining(", "))));
  }
}
