package dev.tewheel.cli;

import dev.tewheel.core.goal.Parameter;
import java.util.ArrayList;
import java.util.List;

/** A gate command's --help, its options described from core's Parameters, as the goal documents them. */
final class Help {
  private static final int WIDTH = 110;
  private static final int COLUMN = 34;

  private Help() {}

  static String of(String command, String goal, Options.Spec spec, String description) {
    StringBuilder out = new StringBuilder();
    out.append("usage: te-wheel ").append(command).append(" [options] ").append(spec.operands()).append('\n');
    wrap(out, "", description);
    out.append("\noptions (the parameters of ").append(goal).append(", whose user property is te.<name>):\n");
    for (Parameter p : spec.parameters()) {
      String meaning = p.help() + (p.defaultValue() == null ? "" : " (default: " + p.defaultValue() + ")")
          + (p.list() ? "; repeat it or separate values with commas" : "");
      option(out, p.option() + " " + p.valueName(), meaning);
    }
    option(out, Options.FORMAT + " FORMAT", "text, json, sarif or junit: what standard output gets (default: text;"
        + " with a report there, the text goes to standard error)");
    option(out, "-h, --help", "this text");
    out.append("\nOn GitHub Actions (GITHUB_ACTIONS=true) each finding is also an annotation.\n");
    out.append(TeWheel.EXIT_STATUS);
    return out.toString();
  }

  /** The --help of a command that is no goal: its options from core's Parameters, its formats and exit status. */
  static String command(String command, Options.Spec spec, String description, String formats, String exit) {
    StringBuilder out = new StringBuilder();
    out.append("usage: te-wheel ").append(command).append(' ').append(spec.operands()).append('\n');
    wrap(out, "", description);
    out.append("\noptions:\n");
    for (Parameter p : spec.parameters()) {
      option(out, p.option() + " " + p.valueName(), p.help() + (p.list() ? "; repeat it for more" : ""));
    }
    option(out, Options.FORMAT + " FORMAT", formats + " (default: text)");
    option(out, "-h, --help", "this text");
    out.append('\n').append(exit);
    return out.toString();
  }

  private static void option(StringBuilder out, String name, String meaning) {
    String head = "  " + name;
    if (head.length() >= COLUMN) {
      out.append(head).append('\n');
      head = "";
    }
    wrap(out, head + " ".repeat(COLUMN - head.length()), meaning);
  }

  /** Appends {@code text} after {@code first}, wrapped at {@link #WIDTH}, continuation lines indented as far. */
  private static void wrap(StringBuilder out, String first, String text) {
    String indent = " ".repeat(first.length());
    StringBuilder line = new StringBuilder(first);
    List<String> words = new ArrayList<>(List.of(text.split(" ")));
    boolean empty = true;
    for (String word : words) {
      if (!empty && line.length() + 1 + word.length() > WIDTH) {
        out.append(line).append('\n');
        line = new StringBuilder(indent);
        empty = true;
      }
      line.append(empty ? "" : " ").append(word);
      empty = false;
    }
    out.append(line).append('\n');
  }
}
