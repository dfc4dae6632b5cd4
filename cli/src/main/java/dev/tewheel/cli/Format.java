package dev.tewheel.cli;

import dev.tewheel.core.gate.ReportWriter;
import java.util.Arrays;
import java.util.Locale;

/**
 * What a gate command prints on standard output: the console text (the goal's log without Maven's prefixes) or one
 * of the report files' forms. With a report on standard output, the text goes to standard error.
 */
enum Format {
  TEXT,
  JSON,
  SARIF,
  JUNIT;

  static Format parse(String text) throws UsageException {
    for (Format format : values()) {
      if (format.name().equalsIgnoreCase(text)) {
        return format;
      }
    }
    throw new UsageException("--format '" + text + "': expected one of " + String.join(", ",
        Arrays.stream(values()).map(f -> f.name().toLowerCase(Locale.ROOT)).toList()));
  }

  /** The report in this form (not for TEXT, which is printed line by line). */
  String render(ReportWriter writer) {
    return switch (this) {
      case JSON -> writer.json();
      case SARIF -> writer.sarif();
      case JUNIT -> writer.junit();
      case TEXT -> throw new IllegalStateException("text is printed as lines");
    };
  }
}
