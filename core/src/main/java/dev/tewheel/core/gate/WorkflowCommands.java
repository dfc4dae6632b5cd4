package dev.tewheel.core.gate;

import dev.tewheel.json.Printable;
import java.util.ArrayList;
import java.util.List;

/**
 * GitHub Actions workflow commands, one per finding ({@code ::error file=…,line=…,title=<ID>::<message>}, or
 * {@code ::warning}, {@code ::notice}), which the runner shows as annotations on the run and the pull request. Each
 * value first goes through the one rule ({@link Printable#text}), so the annotation shows what the console shows,
 * then is escaped as the runner requires: {@code %}, CR and LF in the message; also {@code :} and {@code ,} in
 * properties. The line then parses as exactly this one command, whatever a name holds.
 */
final class WorkflowCommands {
  /** The environment variable GitHub Actions sets to {@code true} on its runners. */
  static final String ENVIRONMENT = "GITHUB_ACTIONS";

  private WorkflowCommands() {}

  static List<String> of(GateReport report, Places places) {
    List<String> lines = new ArrayList<>();
    report.findings().forEach(f -> lines.add(of(f, places)));
    return lines;
  }

  static String of(Finding f, Places places) {
    String command = switch (f.severity()) {
      case ERROR -> "error";
      case WARNING -> "warning";
      case INFO -> "notice";
    };
    return "::" + command + " file=" + property(places.file(f)) + (f.line() == null ? "" : ",line=" + f.line())
        + ",title=" + property(f.checkId()) + "::" + data(f.checkId() + ": " + f.text());
  }

  /** A command's message: printable, then {@code %}, CR, LF escaped (the last two are gone by then). */
  static String data(String text) {
    return Printable.text(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A");
  }

  /** A property's value: as {@link #data}, and {@code :}, {@code ,} escaped, which end a property. */
  static String property(String text) {
    return data(text).replace(":", "%3A").replace(",", "%2C");
  }
}
