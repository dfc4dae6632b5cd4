package dev.tewheel.core.gate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a report lists of a gate's findings: at most {@link Gate#MAX_LISTED_PER_RULE} of each rule, in the gate's
 * order, then one finding of that rule saying how many more there are. A hostile input can make a rule find a
 * hundred thousand things; every report form (console, report.json, JUnit, SARIF, annotations) lists this bounded
 * list, while {@link GateReport.Totals} keeps every finding's count for the summary and report.json's counts.
 *
 * @param findings the listed active findings
 * @param suppressed the listed suppressed findings
 * @param totals every finding counted, listed or not
 */
record ListedFindings(List<Finding> findings, List<GateReport.SuppressedFinding> suppressed,
    GateReport.Totals totals) {

  /** The findings and suppressed findings a report lists, from all the gate judged. */
  static ListedFindings of(List<Finding> active, List<GateReport.SuppressedFinding> suppressed) {
    GateReport.Totals totals = GateReport.Totals.of(active, suppressed);
    List<Finding> listed = limit(active, f -> f, Gate.MAX_LISTED_PER_RULE, (rule, rest) -> more(rule, rest,
        "fix the listed ones and run again (such runs of findings usually share one cause); the summary line and"
            + " report.json's counts include every finding"));
    List<GateReport.SuppressedFinding> accepted = limit(suppressed, GateReport.SuppressedFinding::finding,
        Gate.MAX_LISTED_PER_RULE, (rule, rest) -> new GateReport.SuppressedFinding(more(rule, rest,
            "nothing: they are suppressed; the summary line and report.json's counts include every one"),
            "accepted by the suppressions, not listed one by one"));
    return new ListedFindings(listed, accepted, totals);
  }

  /** Up to {@code max} items per rule in their order; each rule's rest becomes one item made by {@code more}. */
  private static <T> List<T> limit(List<T> items, java.util.function.Function<T, Finding> finding, int max,
      java.util.function.BiFunction<String, List<Finding>, T> more) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    Map<String, List<Finding>> rest = new LinkedHashMap<>();
    Map<String, Integer> restAt = new LinkedHashMap<>();
    List<T> listed = new ArrayList<>();
    for (T item : items) {
      Finding f = finding.apply(item);
      int n = counts.merge(f.checkId(), 1, Integer::sum);
      if (n <= max) {
        listed.add(item);
      } else {
        rest.computeIfAbsent(f.checkId(), k -> new ArrayList<>()).add(f);
        restAt.putIfAbsent(f.checkId(), listed.size());
      }
    }
    if (rest.isEmpty()) {
      return items;
    }
    // Each "more" item goes where the rule's first unlisted one would have been: after its listed ones.
    List<T> result = new ArrayList<>(listed.size() + rest.size());
    int from = 0;
    List<Map.Entry<String, Integer>> places = new ArrayList<>(restAt.entrySet());
    places.sort(Map.Entry.comparingByValue()); // stable: rule order among equal places
    for (Map.Entry<String, Integer> place : places) {
      result.addAll(listed.subList(from, place.getValue()));
      from = place.getValue();
      result.add(more.apply(place.getKey(), rest.get(place.getKey())));
    }
    result.addAll(listed.subList(from, listed.size()));
    return result;
  }

  /**
   * The finding that stands for {@code rest}: the highest severity among them (so the verdict is the same), the
   * place they share, how many they are.
   */
  private static Finding more(String rule, List<Finding> rest, String fix) {
    Severity highest = rest.stream().map(Finding::severity).max(Enum::compareTo).orElseThrow();
    long bySeverity = rest.stream().filter(f -> f.severity() == highest).count();
    String found = String.format(Locale.ROOT, "%,d more %s findings, not listed (%,d of them %s): the report lists"
        + " the first %d of each rule", rest.size(), rule, bySeverity, highest.name().toLowerCase(Locale.ROOT)
        + (bySeverity == 1 ? "" : "s"), Gate.MAX_LISTED_PER_RULE);
    return new Finding(rule, highest, sharedPlace(rest), found, "at most " + Gate.MAX_LISTED_PER_RULE
        + " findings of one rule in a report", fix);
  }

  /**
   * The longest folder (up to a '/' or a wheel's '!') that every finding's file lies in, else the first one's file:
   * "x.whl!transformer_engine/ghost" for a hundred thousand rows under it.
   */
  static String sharedPlace(List<Finding> findings) {
    String shared = findings.get(0).file();
    for (Finding f : findings) {
      String file = f.file();
      int n = 0;
      int limit = Math.min(shared.length(), file.length());
      while (n < limit && shared.charAt(n) == file.charAt(n)) {
        n++;
      }
      if (n < shared.length()) {
        shared = shared.substring(0, n);
      }
    }
    if (findings.stream().allMatch(f -> f.file().equals(findings.get(0).file()))) {
      return findings.get(0).file();
    }
    int cut = Math.max(shared.lastIndexOf('/'), shared.lastIndexOf('!'));
    return cut > 0 ? shared.substring(0, cut) : findings.get(0).file();
  }
}
