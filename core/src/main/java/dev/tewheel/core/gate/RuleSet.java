package dev.tewheel.core.gate;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The rules one gate judges by, and how to run them on a subject: the check catalogue on a wheel_lib, the diff
 * rules on a comparison of two releases.
 *
 * @param <S> what the rules examine
 */
public interface RuleSet<S> {
  /** What one rule is called in messages: "check", "diff rule". */
  String noun();

  /** Every rule, in report order. */
  List<? extends Rule> rules();

  /** The findings of one of {@link #rules()}, each at the severity the rule gave it; none when it holds. */
  List<Finding> run(Rule rule, S subject);

  /** Every finding of every rule, in rule order. */
  default List<Finding> run(S subject) {
    List<Finding> findings = new java.util.ArrayList<>();
    rules().forEach(rule -> findings.addAll(run(rule, subject)));
    return findings;
  }

  default Optional<Rule> byId(String id) {
    return rules().stream().<Rule>map(r -> r).filter(r -> r.id().equals(id)).findFirst();
  }

  /**
   * The one place an unknown rule ID (a severity override's, a suppression's) is reported, before any rule runs: a
   * typo must not cost a full verification first.
   *
   * @throws IllegalArgumentException naming the unknown ID and listing the valid ones
   */
  default Rule requireKnown(String id) {
    return byId(id).orElseThrow(() -> new IllegalArgumentException("no " + noun() + " has the ID '" + id + "'; the "
        + noun() + " IDs are " + rules().stream().map(Rule::id).collect(Collectors.joining(", "))));
  }
}
