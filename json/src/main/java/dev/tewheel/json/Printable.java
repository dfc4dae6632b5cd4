package dev.tewheel.json;

/**
 * The one rule for text that reaches a person or a CI log: a console, a report, an annotation, a build log. Names
 * come from the inputs (a wheel's entries, a library's DT_NEEDED, an environment value), so what they hold is shown,
 * never acted on: a newline must not start a forged line ({@code Available: yes}, {@code [INFO] BUILD SUCCESS}), an
 * escape sequence must not reach the terminal, a bidi override must not reorder what a reader sees, and GitHub's
 * runner must not read a command ({@code ::error …}, {@code ##[add-mask]…}) where te-wheel printed a name.
 *
 * <p>Escaped visibly, never dropped: {@code \n}, {@code \r}, {@code \t}, {@code \0}, else {@code \u202e} for a code
 * unit of the BMP and {@code \U000e0001} above it. Escaped are control characters (Cc, with NEL), format characters
 * (Cf: the bidi controls, zero-width characters, the byte order mark, …), the line and paragraph separators, lone
 * surrogates and the noncharacters (U+FDD0…U+FDEF and the last two of every plane, which XML 1.0 cannot hold). The
 * runner's legacy command marker {@code ##[} becomes {@code #\u0023[}.
 *
 * <p>The rule is idempotent: a value escaped on its own and then again in the line that holds it prints the same.
 * That is why a backslash stays as it is; a name holding a literal {@code \n} prints like one holding a newline, and
 * neither starts a line.
 */
public final class Printable {
  private Printable() {}

  /**
   * {@code text} with every code point {@link #escaped} written as an escape, and {@code ##[} broken; null stays
   * null (an exception without a message).
   *
   * @param text what is to be printed, or null
   * @return the printable form, or null for null
   */
  public static String text(String text) {
    if (text == null) {
      return null;
    }
    int first = firstToEscape(text);
    if (first == text.length()) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, first);
    for (int i = first; i < text.length(); ) {
      int c = text.codePointAt(i);
      int n = Character.charCount(c);
      if (c == '#' && commandMarkerAt(text, i - 1)) {
        out.append("\\u0023");
      } else if (escaped(c)) {
        escape(c, out);
      } else {
        out.appendCodePoint(c);
      }
      i += n;
    }
    return out.toString();
  }

  /**
   * One line of output: {@link #text}, and a {@code ::} that would begin it (after spaces) written {@code \u003a:},
   * since GitHub's runner takes a line that starts so for a workflow command. The caller ends the line.
   *
   * @param text the line's text without its line break; null prints as {@code null}
   * @return the printable line
   */
  public static String line(String text) {
    String line = Printable.text(String.valueOf(text));
    int i = 0;
    while (i < line.length() && (line.charAt(i) == ' ' || Character.getType(line.charAt(i))
        == Character.SPACE_SEPARATOR)) {
      i++;
    }
    return line.startsWith("::", i) ? line.substring(0, i) + "\\u003a" + line.substring(i + 1) : line;
  }

  /**
   * Whether {@link #text} writes this code point as an escape. A surrogate code point is one only {@code text} sees
   * alone: a valid pair reaches here as the supplementary code point it encodes.
   *
   * @param c a code point
   * @return whether it is printed as an escape
   */
  public static boolean escaped(int c) {
    if (c < 0x20 || c >= 0x7f && c <= 0x9f) {
      return true; // C0, DEL, C1 (with NEL)
    }
    if (c < 0x600) {
      return c == 0xad; // SOFT HYPHEN, the one format character below U+0600
    }
    if (c >= 0xfdd0 && c <= 0xfdef || (c & 0xfffe) == 0xfffe) {
      return true; // noncharacters
    }
    return switch (Character.getType(c)) {
      case Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.SURROGATE,
          Character.CONTROL -> true;
      default -> false;
    };
  }

  /** The index of the first code unit {@link #text} changes, or the length when there is none. */
  private static int firstToEscape(String text) {
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      if (escaped(c) || c == '#' && commandMarkerAt(text, i - 1)) {
        return i;
      }
      i += Character.charCount(c);
    }
    return text.length();
  }

  /** Whether {@code ##[} starts at {@code i}: the second {@code #} is the one escaped. */
  private static boolean commandMarkerAt(String text, int i) {
    return i >= 0 && text.startsWith("##[", i);
  }

  private static void escape(int c, StringBuilder out) {
    switch (c) {
      case '\n' -> out.append("\\n");
      case '\r' -> out.append("\\r");
      case '\t' -> out.append("\\t");
      case 0 -> out.append("\\0");
      default -> hex(out.append(c > 0xffff ? "\\U" : "\\u"), c, c > 0xffff ? 8 : 4);
    }
  }

  private static void hex(StringBuilder out, int value, int digits) {
    for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) {
      out.append(Character.forDigit(value >> shift & 0xf, 16));
    }
  }
}
