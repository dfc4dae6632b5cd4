package dev.tewheel.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tewheel.standins.GitHubRunner;
import dev.tewheel.standins.HostileText;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The one escaping rule, held to the generated hostile strings and to GitHub's runner. */
@Timeout(120)
class PrintableTest {
  private static final List<String> HOSTILE = HostileText.strings();

  @Test
  void escapesExactlyTheDangerousCodePointsOfEveryPlane() {
    for (int c = 0; c <= Character.MAX_CODE_POINT; c++) {
      if (Printable.escaped(c) != HostileText.dangerous(c)) {
        fail(String.format("U+%04X (type %d): escaped %s, dangerous %s", c, Character.getType(c),
            Printable.escaped(c), HostileText.dangerous(c)));
      }
    }
  }

  @Test
  void noDangerousCodePointOrLineBreakSurvivesAndNothingIsDropped() {
    for (String s : HOSTILE) {
      String text = Printable.text(s);
      text.codePoints().filter(HostileText::dangerous).findFirst().ifPresent(c -> fail(String.format(
          "U+%04X raw in %s (from %s)", c, text, ascii(s))));
      assertEquals(1, GitHubRunner.lines(text).size(), ascii(s));
      if (s.indexOf('\\') < 0) {
        assertEquals(s, unescape(text), "every code point shows as its escape: " + text);
      }
    }
  }

  @Test
  void aLineHoldsNoCommandTheRunnerWouldRun() {
    for (String s : HOSTILE) {
      for (String line : List.of(Printable.line(s), Printable.line("  " + s), "x " + Printable.text(s),
          "[INFO] " + Printable.text(s))) {
        assertEquals(List.of(), GitHubRunner.commands(line), () -> ascii(s) + " printed as " + line);
      }
    }
  }

  @Test
  void isIdempotentSoAValueAndItsLineMayBothBeEscaped() {
    for (String s : HOSTILE) {
      String text = Printable.text(s);
      assertEquals(text, Printable.text(text), ascii(s));
      String line = Printable.line(s);
      assertEquals(line, Printable.line(line), ascii(s));
      assertEquals(line, Printable.line(text), ascii(s));
    }
  }

  @Test
  void theEscapesAsDocsReportsShowsThem() {
    assertEquals("libevil.so\\n::error title=x::owned\\nAvailable: yes",
        Printable.text("libevil.so\n::error title=x::owned\nAvailable: yes"));
    assertEquals("lib\\u202eos.so\\u200b \\r\\t\\0 \\U000e0001 \\ud800 \\uffff \\u0085",
        Printable.text("lib\u202eos.so\u200b \r\t\0 \udb40\udc01 \ud800 \uffff \u0085"));
    assertEquals("x #\\u0023[error]y", Printable.text("x ##[error]y"));
    assertEquals("  \\u003a:error::x", Printable.line("  ::error::x"));
    assertEquals("a::b", Printable.line("a::b"));
    assertEquals("transformer_engine::nvte", Printable.text("transformer_engine::nvte"));
    String plain = "/usr/lib/x86_64-linux-gnu/libnccl.so.2 é 日本 \ud83d\ude00";
    assertTrue(plain == Printable.text(plain), "a text with nothing to escape is returned as it is");
  }

  /** The reading of {@link Printable#text}'s escapes (for a text without backslashes of its own). */
  static String unescape(String text) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char kind = text.charAt(++i);
      switch (kind) {
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case '0' -> out.append('\0');
        case 'u' -> {
          out.append((char) Integer.parseInt(text.substring(i + 1, i + 5), 16));
          i += 4;
        }
        case 'U' -> {
          out.appendCodePoint(Integer.parseInt(text.substring(i + 1, i + 9), 16));
          i += 8;
        }
        default -> throw new AssertionError("unknown escape \\" + kind + " in " + text);
      }
    }
    return out.toString();
  }

  /** A hostile string as an assertion message can show it. */
  static String ascii(String s) {
    StringBuilder out = new StringBuilder();
    s.chars().forEach(c -> out.append(c >= 0x20 && c < 0x7f ? String.valueOf((char) c)
        : String.format("<%04X>", c)));
    return out.toString();
  }
}
