package dev.tewheel.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
  @Test
  void writesAndParsesBackEveryType() {
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("s", "quote \" backslash \\ newline \n tab \t control \u0001 unicode é");
    value.put("n", 42L);
    value.put("neg", -7L);
    value.put("t", true);
    value.put("nothing", null);
    value.put("list", List.of(1L, "two", List.of(), Map.of()));
    String text = Json.write(value);
    assertEquals(value, Json.parse(text));
    assertTrue(text.startsWith("{\n  \"s\": "), text);
  }

  @Test
  void objectKeepsTheOrderAndNullValuesOfItsPairs() {
    Map<String, Object> object = Json.object("b", 1L, "a", null, "c", List.of("x"));
    assertEquals(List.of("b", "a", "c"), List.copyOf(object.keySet()));
    assertEquals("{\n  \"b\": 1,\n  \"a\": null,\n  \"c\": [\n    \"x\"\n  ]\n}\n", Json.write(object));
    assertThrows(IllegalArgumentException.class, () -> Json.object("odd"));
    assertThrows(IllegalArgumentException.class, () -> Json.object(1, "key not a String"));
  }

  @Test
  void parsesStandardEscapesAndNumbers() {
    assertEquals("a/b\u00e9", Json.parse("\"a\\/b\\u00e9\""));
    assertEquals(1.5e3, Json.parse(" 1.5e3 "));
    assertEquals(Arrays.asList(true, false, null), Json.parse("[true,false,null]"));
  }

  @Test
  void malformedTextNamesTheOffset() {
    for (String bad : new String[] {"{", "{\"a\" 1}", "[1,]", "\"open", "{\"a\":1,\"a\":2}", "01x", "[1] 2", "tru",
        "\"\\x\"", "[".repeat(100)}) {
      JsonException e = assertThrows(JsonException.class, () -> Json.parse(bad), bad);
      assertTrue(e.getMessage().contains("at offset"), e.getMessage());
    }
  }

  @Test
  void escapesEveryAwkwardCharacterOnce() {
    String awkward = "q\"b\\s/\n\r\t\b\f\u0001é€\uD83D\uDE00";
    List<Object> values = Arrays.asList(awkward, null, true, -7L);
    String json = Json.write(values, 0);
    assertEquals("[\"q\\\"b\\\\s/\\n\\r\\t\\b\\f\\u0001\\u00e9\\u20ac\\ud83d\\ude00\", null, true, -7]\n", json);
    assertEquals(values, Json.parse(json));
  }

  @Test
  void containersFromTheMultilineDepthOnAreWrittenOnOneLine() {
    Map<String, Object> file = new LinkedHashMap<>();
    file.put("path", "a.so");
    file.put("needed", List.of("libc.so.6", "libm.so.6"));
    file.put("versionNeeds", Map.of("libc.so.6", List.of("GLIBC_2.2.5")));
    file.put("rpath", List.of());
    assertEquals("""
        [
          {
            "path": "a.so",
            "needed": ["libc.so.6", "libm.so.6"],
            "versionNeeds": {"libc.so.6": ["GLIBC_2.2.5"]},
            "rpath": []
          }
        ]
        """, Json.write(List.of(file), 2));
  }
}
