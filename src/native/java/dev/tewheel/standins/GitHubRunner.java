package dev.tewheel.standins;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How GitHub's runner reads a step's output, as its documentation and its ActionCommand parser describe it: the
 * oracle the printers' tests hold te-wheel's console lines and workflow commands to.
 *
 * <p>The output is read line by line (a line ends at LF, CR or CR LF). A line is a workflow command when, after
 * leading white space, it starts with {@code ::}, the text up to the next {@code ::} names a registered command
 * (then a space and {@code key=value} properties separated by commas), and the rest is the data; properties unescape
 * {@code %0D %0A %3A %2C %25}, the data {@code %0D %0A %25}. Failing that, the legacy form {@code ##[command
 * key=value;…]data} is looked for anywhere in the line.
 */
public final class GitHubRunner {
  /** A command the runner would run; {@code legacy} for the {@code ##[…]} form. */
  public record Command(String name, Map<String, String> properties, String data, boolean legacy) {}

  private GitHubRunner() {}

  /** The lines the runner reads in {@code output}. */
  public static List<String> lines(String output) {
    List<String> lines = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < output.length(); i++) {
      char c = output.charAt(i);
      if (c == '\n' || c == '\r') {
        lines.add(output.substring(start, i));
        if (c == '\r' && i + 1 < output.length() && output.charAt(i + 1) == '\n') {
          i++;
        }
        start = i + 1;
      }
    }
    if (start < output.length()) {
      lines.add(output.substring(start));
    }
    return lines;
  }

  /** Every command the runner would find in {@code output}, one line at a time. */
  public static List<Command> commands(String output) {
    List<Command> commands = new ArrayList<>();
    for (String line : lines(output)) {
      command(line).ifPresent(commands::add);
    }
    return commands;
  }

  /** The command the runner reads in one line, if any. */
  public static Optional<Command> command(String line) {
    Optional<Command> current = current(line);
    return current.isPresent() ? current : legacy(line);
  }

  private static Optional<Command> current(String line) {
    int start = 0;
    while (start < line.length() && dotnetWhiteSpace(line.charAt(start))) {
      start++;
    }
    String message = line.substring(start);
    if (!message.startsWith("::")) {
      return Optional.empty();
    }
    int end = message.indexOf("::", 2);
    if (end < 0) {
      return Optional.empty();
    }
    String info = message.substring(2, end);
    int space = info.indexOf(' ');
    String name = space < 0 ? info : info.substring(0, space);
    if (!HostileText.RUNNER_COMMANDS.contains(name)) {
      return Optional.empty();
    }
    Map<String, String> properties = new LinkedHashMap<>();
    if (space > 0) {
      for (String property : info.substring(space + 1).strip().split(",")) {
        int eq = property.indexOf('=');
        if (eq > 0 && eq < property.length() - 1) {
          properties.put(property.substring(0, eq), unescape(property.substring(eq + 1), true));
        }
      }
    }
    return Optional.of(new Command(name, properties, unescape(message.substring(end + 2), false), false));
  }

  private static Optional<Command> legacy(String line) {
    int prefix = line.indexOf("##[");
    if (prefix < 0) {
      return Optional.empty();
    }
    int close = line.indexOf(']', prefix);
    if (close < 0) {
      return Optional.empty();
    }
    String info = line.substring(prefix + 3, close);
    int space = info.indexOf(' ');
    String name = space < 0 ? info : info.substring(0, space);
    if (!HostileText.RUNNER_COMMANDS.contains(name)) {
      return Optional.empty();
    }
    Map<String, String> properties = new LinkedHashMap<>();
    if (space > 0) {
      for (String property : info.substring(space + 1).split(";")) {
        int eq = property.indexOf('=');
        if (eq > 0 && eq < property.length() - 1) {
          properties.put(property.substring(0, eq), property.substring(eq + 1));
        }
      }
    }
    return Optional.of(new Command(name, properties, line.substring(close + 1), true));
  }

  /** The runner's unescaping: each escape replaced in turn, {@code %25} last. */
  private static String unescape(String text, boolean property) {
    String out = text.replace("%0D", "\r").replace("%0A", "\n");
    if (property) {
      out = out.replace("%3A", ":").replace("%2C", ",");
    }
    return out.replace("%25", "%");
  }

  /** .NET's {@code Char.IsWhiteSpace}, which the runner's {@code TrimStart} uses. */
  private static boolean dotnetWhiteSpace(char c) {
    int type = Character.getType(c);
    return type == Character.SPACE_SEPARATOR || type == Character.LINE_SEPARATOR
        || type == Character.PARAGRAPH_SEPARATOR || c >= '\t' && c <= '\r' || c == '\u0085';
  }
}
