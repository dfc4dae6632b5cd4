package dev.tewheel.cli;

import dev.tewheel.core.goal.Parameter;
import dev.tewheel.core.goal.Values;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A gate command's command line: the goal's parameters as options ({@code --fail-on warning} or
 * {@code --fail-on=warning}; a list option repeated or comma-separated, as the user property is), {@code --format},
 * {@code --help}, and the operands. Only the spelling is checked here; the values are core's to parse
 * ({@code Configuration}), as the goal's are.
 */
final class Options {
  /**
   * What a command accepts.
   *
   * @param parameters the goal's parameters it offers as options
   * @param operands the operands as its usage names them, e.g. {@code <baseline> <current>} (a command without
   *     operands: its required options)
   * @param minOperands how many operands at least
   * @param maxOperands how many at most
   */
  record Spec(List<Parameter> parameters, String operands, int minOperands, int maxOperands) {}

  /** A parsed command line; {@code help} set means nothing else was looked at. */
  record Parsed(Values values, List<String> operands, Format format, boolean help) {}

  static final String FORMAT = "--format";

  private Options() {}

  static Parsed parse(Spec spec, List<String> args) throws UsageException {
    Map<Parameter, List<String>> given = new LinkedHashMap<>();
    List<String> operands = new ArrayList<>();
    Format format = null;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (arg.equals("--")) {
        operands.addAll(args.subList(i + 1, args.size()));
        break;
      }
      if (arg.equals("-h") || arg.equals("--help")) {
        return new Parsed(new Values(), List.of(), Format.TEXT, true);
      }
      if (arg.startsWith("-D")) {
        throw new UsageException(propertyHint(spec, arg));
      }
      if (!arg.startsWith("-") || arg.equals("-")) {
        operands.add(arg);
        continue;
      }
      int eq = arg.indexOf('=');
      String name = eq < 0 ? arg : arg.substring(0, eq);
      boolean isFormat = name.equals(FORMAT);
      Parameter parameter = isFormat ? null : find(spec, name)
          .orElseThrow(() -> new UsageException(unknown(spec, name)));
      String expected = isFormat ? "text, json, sarif or junit" : parameter.valueName() + ": " + parameter.help();
      String value;
      if (eq >= 0) {
        value = arg.substring(eq + 1);
      } else if (i + 1 < args.size()) {
        value = args.get(++i);
      } else {
        throw new UsageException(name + " needs a value: " + expected);
      }
      if (isFormat) {
        if (format != null) {
          throw new UsageException(twice(name, format.name().toLowerCase(java.util.Locale.ROOT), value));
        }
        format = Format.parse(value);
      } else if (parameter.list()) {
        // As Maven splits a list property: -Dte.floorLibraries=a,b is --floor-libraries a,b.
        given.computeIfAbsent(parameter, p -> new ArrayList<>())
            .addAll(parameter.commaSeparated() ? Arrays.asList(value.split(",", -1)) : List.of(value));
      } else if (given.containsKey(parameter)) {
        throw new UsageException(twice(name, given.get(parameter).get(0), value));
      } else {
        given.put(parameter, List.of(value));
      }
    }
    String got = operands.isEmpty() ? "none" : operands.size() + " (" + String.join(" ", operands) + ")";
    if (spec.maxOperands() == 0 && !operands.isEmpty()) {
      throw new UsageException("takes options only, got operands: " + got + "; a value needs its option, e.g. "
          + spec.operands());
    }
    if (operands.size() < spec.minOperands() || operands.size() > spec.maxOperands()) {
      throw new UsageException("expected " + spec.operands() + ", got " + got);
    }
    Values values = new Values();
    given.forEach((p, v) -> values.set(p, p.list() ? v : v.get(0)));
    return new Parsed(values, List.copyOf(operands), format == null ? Format.TEXT : format, false);
  }

  private static Optional<Parameter> find(Spec spec, String option) {
    return spec.parameters().stream().filter(p -> p.option().equals(option)).findFirst();
  }

  private static String twice(String option, String first, String second) {
    return option + " is given twice ('" + first + "', then '" + second + "'); give it once";
  }

  /** A Maven user property typed to the command: says which option it is. */
  private static String propertyHint(Spec spec, String arg) {
    String property = arg.substring(2);
    int eq = property.indexOf('=');
    String name = eq < 0 ? property : property.substring(0, eq);
    Optional<Parameter> parameter = spec.parameters().stream().filter(p -> p.property().equals(name)).findFirst();
    return parameter.map(p -> "'" + arg + "' is the goal's user property; the command takes " + p.option() + " "
        + (eq < 0 ? p.valueName() : property.substring(eq + 1))).orElse("'" + arg + "' is not an option of this"
        + " command (options are spelled --fail-on, not -Dte.failOn); --help lists them");
  }

  /** An unknown option, with the nearest known one when it is a likely typo. */
  private static String unknown(Spec spec, String option) {
    List<String> known = new ArrayList<>(spec.parameters().stream().map(Parameter::option).toList());
    known.add(FORMAT);
    known.add("--help");
    Optional<String> nearest = known.stream().min(Comparator.comparingInt(k -> distance(k, option)))
        .filter(k -> distance(k, option) <= Math.max(2, option.length() / 4));
    return "unknown option " + option + nearest.map(n -> "; did you mean " + n + "?").orElse("")
        + " (--help lists the options)";
  }

  /** Levenshtein distance, for suggesting an option. */
  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitute, Math.min(previous[j] + 1, current[j - 1] + 1));
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
