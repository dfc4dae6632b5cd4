package dev.tewheel.core.wheel;

import dev.tewheel.json.Printable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The one rule for text that pack writes into a METADATA or WHEEL header, and for how the wheel readers split those
 * files into lines: a header is one line, and a line ends at every character Python's {@code str.splitlines} ends
 * one at (LF, VT, FF, CR, FS, GS, RS, NEL, U+2028, U+2029). Python's email parser, through which pip reads both
 * files, ends headers at CR and LF today and split them with {@code splitlines} in older releases; a value holding
 * any of these would be read as two headers, the second one chosen by whoever wrote the value
 * ({@code te.summary = "x\rRequires-Dist: evil-pkg"}).
 */
public final class HeaderValues {
  /** Every line boundary of {@code str.splitlines}, CR LF being one boundary of two characters. */
  public static final String LINE_BREAKS = "\n\u000b\u000c\r\u001c\u001d\u001e\u0085\u2028\u2029";

  private HeaderValues() {}

  /**
   * Refuses a value holding a line break.
   *
   * @param parameter the parameter it came from, as users write it (summary, requiresDist, ...)
   * @throws IllegalArgumentException starting with the parameter, naming the value (escaped) and the line break
   */
  public static void requireOneLine(String parameter, String value) {
    requireOneLine(parameter, value, "");
  }

  /** As {@link #requireOneLine(String, String)} for each entry of a list parameter, naming the entry. */
  public static void requireOneLine(String parameter, List<String> values) {
    for (int i = 0; i < values.size(); i++) {
      requireOneLine(parameter, values.get(i), " (entry " + (i + 1) + " of " + values.size() + ")");
    }
  }

  private static void requireOneLine(String parameter, String value, String entry) {
    if (value == null) {
      return;
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (LINE_BREAKS.indexOf(c) >= 0) {
        throw new IllegalArgumentException(parameter + " = '" + Printable.text(value) + "'" + entry
            + " holds a line break, " + name(c) + ", at character " + (i + 1) + ": METADATA and WHEEL hold one"
            + " header per line, and Python's email parser (pip's) would read what follows it as a header of its"
            + " own; expected one line: remove the line break (a long text belongs in the description, after the"
            + " headers)");
      }
    }
  }

  /**
   * Refuses a given METADATA whose header section (up to the first empty line) holds a line break other than the LF
   * or CR LF that ends each line: pack renames its Name line, and pip must read the headers pack checked.
   *
   * @param source the file, for the message
   */
  public static void requireHeaderLines(String text, String source) {
    int number = 0;
    for (String raw : text.split("\n", -1)) {
      number++;
      String line = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
      if (line.isEmpty()) {
        return; // the body (the description) starts here
      }
      for (int i = 0; i < line.length(); i++) {
        if (LINE_BREAKS.indexOf(line.charAt(i)) >= 0) {
          throw new IllegalArgumentException(source + " line " + number + " ('" + Printable.text(line)
              + "') holds a line break, " + name(line.charAt(i)) + ", inside a header: Python's email parser (pip's)"
              + " would read what follows it as a header of its own; expected one header per line, each ending in"
              + " LF or CR LF: remove the line break, or regenerate the file");
        }
      }
    }
  }

  /** The text's lines, split at every line break of {@link #LINE_BREAKS}, CR LF counting as one. */
  public static List<String> lines(String text) {
    List<String> lines = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (LINE_BREAKS.indexOf(c) >= 0) {
        lines.add(text.substring(start, i));
        if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
          i++;
        }
        start = i + 1;
      }
    }
    if (start < text.length()) {
      lines.add(text.substring(start));
    }
    return lines;
  }

  /** "U+000D CARRIAGE RETURN (CR)": the code point and its Unicode name. */
  static String name(char c) {
    String name = Character.getName(c);
    return String.format(Locale.ROOT, "U+%04X", (int) c) + (name == null ? "" : " " + name);
  }
}
