package dev.tewheel.plugin;

import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.logging.SystemStreamLog;

/** A Maven log that keeps each info, warning and error line (as "INFO text", "WARN text", "ERROR text") instead of printing it. */
final class RecordingLog extends SystemStreamLog {
  final List<String> lines = new ArrayList<>();

  @Override
  public void info(CharSequence content) {
    lines.add("INFO " + content);

  }

  @Override
  public void warn(CharSequence content) {
    lines.add("WARN " + content);

  }

  @Override
  public void error(CharSequence content) {
    lines.add("ERROR " + content);
  }

  List<String> errors() {
    return lines.stream().filter(l -> l.startsWith("ERROR ")).map(l -> l.substring(6)).toList();
  }

  List<String> warnings() {
    return lines.stream().filter(l -> l.startsWith("WARN ")).map(l -> l.substring(5)).toList();
  }

  List<String> infos() {
    return lines.stream().filter(l -> l.startsWith("INFO ")).map(l -> l.substring(5)).toList();
  }
}
