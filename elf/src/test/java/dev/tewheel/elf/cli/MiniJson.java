package dev.tewheel.elf.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A strict little JSON parser for checking the CLI's output: objects keep key order, numbers become Long. */
final class MiniJson {
  private final String s;
  private int at;

  private MiniJson(String s) {
    this.s = s;
  }

  static Object parse(String text) {
    MiniJson p = new MiniJson(text);
    Object value = p.value();
    p.space();
    if (p.at != text.length()) {
      throw p.error("trailing characters");
    }
    return value;
  }

  private Object value() {
    space();
    if (at >= s.length()) {
      throw error("unexpected end");
    }
    char c = s.charAt(at);
    switch (c) {
      case '{' -> {
        return object();
      }
      case '[' -> {
        return array();
      }
      case '"' -> {
        return string();
      }
      case 't' -> {
        return literal("true", Boolean.TRUE);
      }
      case 'f' -> {
        return literal("false", Boolean.FALSE);
      }
      case 'n' -> {
        return literal("null", null);
      }
      default -> {
        int start = at;
        while (at < s.length() && (s.charAt(at) == '-' || Character.isDigit(s.charAt(at)))) {
          at++;
        }
        if (start == at) {
          throw error("unexpected character " + c);
        }
        return Long.parseLong(s.substring(start, at));
      }
    }
  }

  private Map<String, Object> object() {
    Map<String, Object> result = new LinkedHashMap<>();
    at++;
    space();
    if (peek() == '}') {
      at++;
      return result;
    }
    while (true) {
      space();
      String key = string();
      space();
      expect(':');
      if (result.containsKey(key)) {
        throw error("duplicate key " + key);
      }
      result.put(key, value());
      space();
      if (peek() == ',') {
        at++;
      } else {
        expect('}');
        return result;
      }
    }
  }

  private List<Object> array() {
    List<Object> result = new ArrayList<>();
    at++;
    space();
    if (peek() == ']') {
      at++;
      return result;
    }
    while (true) {
      result.add(value());
      space();
      if (peek() == ',') {
        at++;
      } else {
        expect(']');
        return result;
      }
    }
  }

  private String string() {
    expect('"');
    StringBuilder b = new StringBuilder();
    while (true) {
      if (at >= s.length()) {
        throw error("unterminated string");
      }
      char c = s.charAt(at++);
      if (c == '"') {
        return b.toString();
      } else if (c < 0x20) {
        throw error("raw control character in string");
      } else if (c == '\\') {
        char e = s.charAt(at++);
        switch (e) {
          case '"', '\\', '/' -> b.append(e);
          case 'n' -> b.append('\n');
          case 'r' -> b.append('\r');
          case 't' -> b.append('\t');
          case 'b' -> b.append('\b');
          case 'f' -> b.append('\f');
          case 'u' -> {
            b.append((char) Integer.parseInt(s.substring(at, at + 4), 16));
            at += 4;
          }
          default -> throw error("bad escape \\" + e);
        }
      } else {
        b.append(c);
      }
    }
  }

  private Object literal(String word, Object value) {
    if (!s.startsWith(word, at)) {
      throw error("expected " + word);
    }
    at += word.length();
    return value;
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("expected '" + c + "'");
    }
    at++;
  }

  private char peek() {
    return at < s.length() ? s.charAt(at) : '\0';
  }

  private void space() {
    while (at < s.length() && Character.isWhitespace(s.charAt(at))) {
      at++;
    }
  }

  private IllegalArgumentException error(String message) {
    return new IllegalArgumentException(message + " at " + at + " in: " + s);
  }
}
