package dev.tewheel.json;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON this project reads and writes (manifests, reports, assemble's state, the runtime's and the ELF
 * reader's command-line output), with no third-party library and one escaping rule: objects become
 * {@code Map<String, Object>} in document order, arrays {@code List<Object>}, numbers {@code Long} or
 * {@code Double}, plus {@code String}, {@code Boolean} and {@code null}.
 */
public final class Json {
  private static final int MAX_DEPTH = 64;

  private final String text;
  private int at;

  private Json(String text) {
    this.text = text;
  }

  /**
   * Parses one JSON value.
   *
   * @param text the whole document
   * @return the value, built of the types above
   * @throws JsonException for anything malformed, with the offset
   */
  public static Object parse(String text) {
    Json parser = new Json(text);
    Object value = parser.value(0);
    parser.skipSpace();
    if (parser.at != text.length()) {
      throw parser.error("unexpected text after the value");
    }
    return value;
  }

  /**
   * Writes a value built of the types above, indented by two spaces, keys in map order, ending with a new line.
   *
   * @param value a map, list, string, number, boolean or null
   * @return the JSON text
   */
  public static String write(Object value) {
    return write(value, Integer.MAX_VALUE);
  }

  /**
   * As {@link #write(Object)}, but a container nested {@code multilineDepth} or more levels deep is written on one
   * line ({@code ["a", "b"]}, {@code {"k": 1}}): 2 puts each member of the top container and of its children on a
   * line of its own and keeps their values compact, as the ELF CLI prints one file per object.
   *
   * @param value a map, list, string, number, boolean or null
   * @param multilineDepth the first nesting level written on one line (0 is the value itself)
   * @return the JSON text
   */
  public static String write(Object value, int multilineDepth) {
    StringBuilder out = new StringBuilder();
    write(value, out, 0, multilineDepth);
    return out.append('\n').toString();
  }

  /**
   * A JSON object of these key, value pairs, in this order; a value may be null (written as null), which
   * {@code Map.of} refuses. For the writers that build reports member by member.
   *
   * @param keysAndValues key, value, key, value, …; each key a String
   * @return a new mutable map in that order
   * @throws IllegalArgumentException for an odd count or a key that is not a String
   */
  public static Map<String, Object> object(Object... keysAndValues) {
    if (keysAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("an object needs key, value pairs; got " + keysAndValues.length + " items");
    }
    Map<String, Object> object = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      if (!(keysAndValues[i] instanceof String key)) {
        throw new IllegalArgumentException("key " + i / 2 + " is not a String: " + keysAndValues[i]);
      }
      object.put(key, keysAndValues[i + 1]);
    }
    return object;
  }

  /**
   * Appends {@code s} as a JSON string literal: quote, backslash and control characters escaped, and every
   * non-ASCII character as a {@code \}{@code uXXXX} escape, so the text survives any console or file encoding.
   *
   * @param s the text
   * @param out where the literal is appended
   */
  public static void quote(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20 || c > 0x7e) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private static void write(Object value, StringBuilder out, int indent, int multilineDepth) {
    boolean inline = indent >= multilineDepth;
    if (value == null) {
      out.append("null");
    } else if (value instanceof String s) {
      quote(s, out);
    } else if (value instanceof Boolean || value instanceof Long || value instanceof Integer) {
      out.append(value);
    } else if (value instanceof java.math.BigDecimal decimal) {
      out.append(decimal.toPlainString()); // as given: 19.78 stays 19.78, never 1.978E1
    } else if (value instanceof Double d && Double.isFinite(d)) {
      out.append(d);
    } else if (value instanceof Map<?, ?> map) {
      if (map.isEmpty()) {
        out.append("{}");
        return;
      }
      out.append('{');
      int i = 0;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        separate(out, i++, indent, inline);
        quote((String) entry.getKey(), out);
        out.append(": ");
        write(entry.getValue(), out, indent + 1, multilineDepth);
      }
      close(out, indent, inline, '}');
    } else if (value instanceof List<?> list) {
      if (list.isEmpty()) {
        out.append("[]");
        return;
      }
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        separate(out, i, indent, inline);
        write(list.get(i), out, indent + 1, multilineDepth);
      }
      close(out, indent, inline, ']');
    } else {
      throw new IllegalArgumentException("cannot write " + value.getClass().getName() + " as JSON");
    }
  }

  /** What goes before member {@code index}: a comma unless first, then a new line and indent or a space. */
  private static void separate(StringBuilder out, int index, int indent, boolean inline) {
    if (index > 0) {
      out.append(',');
    }
    if (!inline) {
      out.append('\n').append("  ".repeat(indent + 1));
    } else if (index > 0) {
      out.append(' ');
    }
  }

  private static void close(StringBuilder out, int indent, boolean inline, char bracket) {
    if (!inline) {
      out.append('\n').append("  ".repeat(indent));
    }
    out.append(bracket);
  }

  private Object value(int depth) {
    if (depth > MAX_DEPTH) {
      throw error("nested deeper than " + MAX_DEPTH);
    }
    skipSpace();
    if (at >= text.length()) {
      throw error("unexpected end of text");
    }
    char c = text.charAt(at);
    return switch (c) {
      case '{' -> object(depth);
      case '[' -> array(depth);
      case '"' -> string();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", null);
      default -> {
        if (c == '-' || (c >= '0' && c <= '9')) {
          yield number();
        }
        throw error("unexpected character '" + c + "'");
      }
    };
  }

  private Map<String, Object> object(int depth) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (boolean more = open('}'); more; more = next('}')) {
      skipSpace();
      if (!peek('"')) {
        throw error("expected a string key");
      }
      String key = string();
      skipSpace();
      expect(':');
      if (map.containsKey(key)) {
        throw error("duplicate key '" + key + "'");
      }
      map.put(key, value(depth + 1));
    }
    return Collections.unmodifiableMap(map);
  }

  private List<Object> array(int depth) {
    List<Object> list = new ArrayList<>();
    for (boolean more = open(']'); more; more = next(']')) {
      list.add(value(depth + 1));
    }
    return Collections.unmodifiableList(list);
  }

  /** Reads the opening bracket: whether a member follows, or {@code close} (read too) ends an empty container. */
  private boolean open(char close) {
    at++;
    skipSpace();
    if (peek(close)) {
      at++;
      return false;
    }
    return true;
  }

  /** Reads what follows a member: a comma (true: another member follows) or {@code close} (false). */
  private boolean next(char close) {
    skipSpace();
    if (peek(',')) {
      at++;
      return true;
    }
    expect(close);
    return false;
  }

  private String string() {
    StringBuilder out = new StringBuilder();
    at++;
    while (true) {
      if (at >= text.length()) {
        throw error("unterminated string");
      }
      char c = text.charAt(at++);
      if (c == '"') {
        return out.toString();
      }
      if (c < 0x20) {
        throw error("control character in string");
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      if (at >= text.length()) {
        throw error("unterminated escape");
      }
      char e = text.charAt(at++);
      switch (e) {
        case '"', '\\', '/' -> out.append(e);
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          if (at + 4 > text.length()) {
            throw error("short \\u escape");
          }
          try {
            out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
          } catch (NumberFormatException ex) {
            throw error("bad \\u escape");
          }
          at += 4;
        }
        default -> throw error("bad escape '\\" + e + "'");
      }
    }
  }

  private Object number() {
    int start = at;
    if (peek('-')) {
      at++;
    }
    boolean integral = true;
    while (at < text.length()) {
      char c = text.charAt(at);
      if (c >= '0' && c <= '9') {
        at++;
      } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
        integral = false;
        at++;
      } else {
        break;
      }
    }
    String digits = text.substring(start, at);
    try {
      return integral ? (Object) Long.parseLong(digits) : (Object) Double.parseDouble(digits);
    } catch (NumberFormatException e) {
      at = start;
      throw error("bad number '" + digits + "'");
    }
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, at)) {
      throw error("expected " + word);
    }
    at += word.length();
    return value;
  }

  private void skipSpace() {
    while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
  }

  private boolean peek(char c) {
    return at < text.length() && text.charAt(at) == c;
  }

  private void expect(char c) {
    if (!peek(c)) {
      throw error("expected '" + c + "'");
    }
    at++;
  }

  private JsonException error(String what) {
    return new JsonException(what + " at offset " + at);
  }
}
