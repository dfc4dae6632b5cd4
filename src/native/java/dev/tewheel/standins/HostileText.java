package dev.tewheel.standins;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Strings made to break a printer, generated over whole Unicode classes rather than listed: every control (Cc) and
 * format (Cf) code point, the line and paragraph separators, every surrogate code unit alone, every noncharacter,
 * forged lines behind every kind of line break, GitHub runner commands (both syntaxes, for every command the runner
 * registers) and the runner's {@code %} escapes. Names in te-wheel's inputs (entry names, DT_NEEDED, file names,
 * environment values) may hold any of them.
 *
 * <p>{@link #dangerous} is the tests' own statement of which code points must never reach an output raw; it does not
 * ask te-wheel's rule.
 */
public final class HostileText {
  /**
   * The commands GitHub's runner registers (its command extensions, plus {@code stop-commands}): a line the runner
   * reads as any of them changes the run.
   */
  public static final List<String> RUNNER_COMMANDS = List.of("error", "warning", "notice", "debug", "add-mask",
      "set-output", "set-env", "save-state", "add-path", "add-matcher", "remove-matcher", "group", "endgroup",
      "echo", "stop-commands");

  /** Every way a terminal, an editor or a line reader may break a line. */
  public static final List<String> LINE_BREAKS = List.of("\n", "\r", "\r\n", "\u000b", "\u000c", "\u0085",
      "\u2028", "\u2029");

  private HostileText() {}

  /**
   * Whether a code point must never reach an output raw: Cc, Cf, Zl, Zp, a surrogate (only ever seen alone: a pair
   * is read as the code point it encodes) and the noncharacters.
   */
  public static boolean dangerous(int codePoint) {
    int type = Character.getType(codePoint);
    return type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
        || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE || noncharacter(codePoint);
  }

  /** U+FDD0…U+FDEF and U+xFFFE, U+xFFFF of every plane. */
  public static boolean noncharacter(int codePoint) {
    return codePoint >= 0xfdd0 && codePoint <= 0xfdef || (codePoint & 0xfffe) == 0xfffe;
  }

  /** Every dangerous code point of every plane, surrogates included, in order. */
  public static IntStream dangerousCodePoints() {
    return IntStream.rangeClosed(0, Character.MAX_CODE_POINT).filter(HostileText::dangerous);
  }

  /**
   * The hostile strings, each unique: every dangerous code point between letters, at the start and at the end; lone
   * surrogates in every position (a high one last, a low one first, a reversed pair, a lone one beside a pair);
   * forged lines behind every line break; every runner command in both syntaxes, at a line's start (also behind
   * Unicode spaces, which the runner trims) and in its middle; the runner's {@code %} escapes and property
   * separators; and a mix of all of these in one string.
   */
  public static List<String> strings() {
    Set<String> out = new LinkedHashSet<>();
    dangerousCodePoints().forEach(c -> {
      String s = new String(Character.toChars(c));
      out.add("lib" + s + "x.so");
      out.add(s + "lib");
      out.add("lib" + s);
    });
    out.add("a\ud800");
    out.add("\udc00a");
    out.add("\udc00\ud800");
    out.add("\ud800\ud800\udc00");
    out.add("\ud83d\ude00\udc00");
    for (String brk : LINE_BREAKS) {
      out.add("lib.so" + brk + "::error title=forged::owned");
      out.add("lib.so" + brk + "Available: yes");
      out.add("lib.so" + brk + "[INFO] BUILD SUCCESS");
      out.add("lib.so" + brk + "::add-mask::secret" + brk);
      out.add(brk + "PASSED: 0 errors");
    }
    List<String> spaces = new ArrayList<>(List.of("", " ", "  ", "\t"));
    IntStream.rangeClosed(0, 0xffff).filter(c -> Character.getType(c) == Character.SPACE_SEPARATOR)
        .forEach(c -> spaces.add(String.valueOf((char) c)));
    for (String command : RUNNER_COMMANDS) {
      for (String space : spaces) {
        out.add(space + "::" + command + "::forged");
      }
      out.add("::" + command + " file=x,title=forged::forged");
      out.add("x ##[" + command + "]forged");
      out.add("###[" + command + " a=b;c=d]forged");
      out.add("##[" + command + "]");
      out.add("name\n::" + command + "::forged");
      out.add("name\r##[" + command + "]forged");
    }
    for (String escape : List.of("%", "%25", "%0A", "%0D", "%0a", "%3A", "%2C", "%3B", "%5D", "%AZP25", "%%0A0A",
        "%250A", "%2525", "100%")) {
      out.add("lib" + escape + "x.so");
    }
    out.add("a,b:c=d");
    out.add(",title=forged,line=1");
    out.add("::");
    out.add("x::y");
    out.add("=");
    out.add("\\n\\u202e");
    out.add("lib\u202e\u2066os.so\u200b\ufeff\u061c\n::error::x\r\n%0A##[warning]y\u0000\ud800\uffff");
    return List.copyOf(out);
  }
}
