package dev.tewheel.core.gate;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The help text of each rule, for SARIF's {@code help}: taken from the pages users read (docs/checks.md, the diff
 * page), which the build ships in core's jar under {@value #FOLDER}, so the text is written once. A check's help is
 * the first paragraph of its {@code ## ID} section; a diff rule's its row of the rules table.
 */
final class RuleHelp {
  static final String FOLDER = "META-INF/te-wheel/help/";
  private static final Pattern ROW = Pattern.compile("^\\| `([A-Z0-9-]+)` \\| [a-z]+ \\| (.+) \\|$", Pattern.MULTILINE);
  private static final Map<String, String> HELP = load();

  private RuleHelp() {}

  /** The rule's help text; its title when the pages have none. */
  static String of(Rule rule) {
    return HELP.getOrDefault(rule.id(), rule.title());
  }

  private static Map<String, String> load() {
    Map<String, String> help = new HashMap<>();
    for (String page : new String[] {"checks.md", "diff-wheel.md"}) {
      String text = read(page);
      Matcher row = ROW.matcher(text);
      while (row.find()) {
        help.put(row.group(1), plain(row.group(2)));
      }
      for (String section : text.split("\n## ")) {
        int end = section.indexOf('\n');
        String id = end < 0 ? "" : section.substring(0, end).trim();
        if (!id.matches("[A-Z0-9-]+")) {
          continue;
        }
        String body = section.substring(end + 1).strip();
        int paragraph = body.indexOf("\n\n");
        help.put(id, plain(paragraph < 0 ? body : body.substring(0, paragraph)));
      }
    }
    return Map.copyOf(help);
  }

  private static String plain(String markdown) {
    return markdown.replace("`", "").replaceAll("\\s+", " ").trim();
  }

  private static String read(String page) {
    try (InputStream in = RuleHelp.class.getClassLoader().getResourceAsStream(FOLDER + page)) {
      if (in == null) {
        throw new IllegalStateException(FOLDER + page + " is missing from te-wheel-core's jar (the build copies it"
            + " from docs/)");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("reading " + FOLDER + page + ": " + e.getMessage(), e);
    }
  }
}
