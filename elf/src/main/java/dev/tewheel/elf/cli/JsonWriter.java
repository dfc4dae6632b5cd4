package dev.tewheel.elf.cli;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;

/**
 * A tiny JSON writer: objects and arrays, strings, booleans, numbers and null. A container opened "multiline" puts
 * each member on its own indented line; others stay on one line. Every non-ASCII character is written as a
 * {@code \}{@code uXXXX} escape, so the output survives any console encoding.
 */
final class JsonWriter {
  private record Frame(boolean multiline, boolean[] empty) {}

  private final StringBuilder out = new StringBuilder();
  private final Deque<Frame> open = new ArrayDeque<>();
  private boolean afterName;

  JsonWriter beginObject(boolean multiline) {
    return begin('{', multiline);
  }

  JsonWriter endObject() {
    return end('}');
  }

  JsonWriter beginArray(boolean multiline) {
    return begin('[', multiline);
  }

  JsonWriter endArray() {
    return end(']');
  }

  JsonWriter name(String name) {
    separate();
    quote(name);
    out.append(": ");
    afterName = true;
    return this;
  }

  JsonWriter value(String value) {
    separate();
    if (value == null) {
      out.append("null");
    } else {
      quote(value);
    }
    return this;
  }

  JsonWriter value(boolean value) {
    separate();
    out.append(value);
    return this;
  }

  JsonWriter value(long value) {
    separate();
    out.append(value);
    return this;
  }

  /** An array of strings on one line. */
  JsonWriter strings(Collection<String> values) {
    beginArray(false);
    for (String v : values) {
      value(v);
    }
    return endArray();
  }

  @Override
  public String toString() {
    return out.toString();
  }

  private JsonWriter begin(char bracket, boolean multiline) {
    separate();
    out.append(bracket);
    open.push(new Frame(multiline, new boolean[] {true}));
    return this;
  }

  private JsonWriter end(char bracket) {
    Frame frame = open.pop();
    if (frame.multiline() && !frame.empty()[0]) {
      newline(open.size());
    }
    out.append(bracket);
    return this;
  }

  /** Writes what goes before a value or name: nothing after a name, else a comma and a space or a new line. */
  private void separate() {
    if (afterName) {
      afterName = false;
      return;
    }
    Frame frame = open.peek();
    if (frame == null) {
      return;
    }
    if (!frame.empty()[0]) {
      out.append(',');
    }
    if (frame.multiline()) {
      newline(open.size());
    } else if (!frame.empty()[0]) {
      out.append(' ');
    }
    frame.empty()[0] = false;
  }

  private void newline(int depth) {
    out.append('\n');
    out.append("  ".repeat(depth));
  }

  private void quote(String s) {
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
}
