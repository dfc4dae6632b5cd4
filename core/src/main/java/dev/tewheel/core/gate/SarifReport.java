package dev.tewheel.core.gate;

import static dev.tewheel.json.Json.object;

import dev.tewheel.json.Json;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SARIF 2.1.0 (OASIS), the form code-scanning tools read: one run whose tool.driver lists every rule (ID, title,
 * help from docs/checks.md, default level), and one result per finding with its level, message and physical
 * location and the line when there is one. A file below the project's folder (decided on the path with its
 * {@code .} and {@code ..} segments resolved) is a relative URI against the base {@value #PROJECT_ROOT}, which the
 * run's {@code originalUriBaseIds} maps to that folder (so code scanning resolves it inside the repository, wherever
 * the build ran); any other file is an absolute {@code file://} URI. Texts are kept exactly (JSON escapes them). A
 * finding inside a wheel ({@code x.whl!entry}) points at the wheel and names the entry in its message. Suppressed
 * findings are results with an external suppression and its justification.
 */
final class SarifReport {
  static final String VERSION = "2.1.0";
  static final String SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

  /** The uriBaseId of the project's folder. */
  static final String PROJECT_ROOT = "PROJECTROOT";

  private SarifReport() {}

  static String of(GateReport report, Places places) {
    List<Object> rules = new ArrayList<>();
    Map<String, Integer> index = new LinkedHashMap<>();
    for (Rule rule : report.rules()) {
      index.put(rule.id(), rules.size());
      rules.add(object("id", rule.id(), "shortDescription", text(rule.title()), "help", text(RuleHelp.of(rule)),
          "defaultConfiguration", Map.of("level", level(rule.defaultSeverity()))));
    }
    List<Object> results = new ArrayList<>();
    report.findings().forEach(f -> results.add(result(f, index, places, null)));
    report.suppressed().forEach(s -> results.add(result(s.finding(), index, places, s.reason())));
    Map<String, Object> run = object("tool", Map.of("driver", object("name", "te-wheel", "fullName",
        "te-wheel " + report.kind().goal(), "rules", rules)));
    if (places.base() != null) {
      run.put("originalUriBaseIds", Map.of(PROJECT_ROOT, Map.of("uri", uri(places.base()))));
    }
    run.put("results", results);
    Map<String, Object> root = object("$schema", SCHEMA, "version", VERSION, "runs", List.of(run));
    return Json.write(root);
  }

  private static Map<String, Object> result(Finding f, Map<String, Integer> index, Places places, String reason) {
    Map<String, Object> result = object("ruleId", f.checkId(), "ruleIndex", index.get(f.checkId()), "level",
        level(f.severity()), "message", text(f.message()));
    String file = places.file(f);
    int bang = file.indexOf(".whl!");
    Map<String, Object> artifact = object("uri", uri(bang < 0 ? file : file.substring(0, bang + 4)));
    if (places.relative(f)) {
      artifact.put("uriBaseId", PROJECT_ROOT);
    }
    Map<String, Object> physical = object("artifactLocation", artifact);
    if (f.line() != null) {
      physical.put("region", Map.of("startLine", f.line()));
    }
    result.put("locations", List.of(Map.of("physicalLocation", physical)));
    if (reason != null) {
      result.put("suppressions", List.of(Map.of("kind", "external", "justification", reason)));
    }
    return result;
  }

  /** SARIF's level for a severity: error, warning, note. */
  static String level(Severity severity) {
    return switch (severity) {
      case ERROR -> "error";
      case WARNING -> "warning";
      case INFO -> "note";
    };
  }

  private static Map<String, Object> text(String text) {
    return Map.of("text", text);
  }

  /**
   * A relative or absolute path as a URI reference: every byte of its UTF-8 outside RFC 3986's unreserved set and
   * '/' escaped; a lone surrogate, which UTF-8 cannot hold, as U+FFFD's bytes.
   */
  static String uri(String path) {
    CharsetEncoder utf8 = StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPLACE)
        .onUnmappableCharacter(CodingErrorAction.REPLACE).replaceWith("\ufffd".getBytes(StandardCharsets.UTF_8));
    ByteBuffer bytes;
    try {
      bytes = utf8.encode(CharBuffer.wrap(path));
    } catch (CharacterCodingException e) {
      throw new IllegalStateException("an encoder that replaces threw", e);
    }
    StringBuilder out = new StringBuilder();
    while (bytes.hasRemaining()) {
      int b = bytes.get() & 0xff;
      char c = (char) b;
      if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "-._~/".indexOf(c) >= 0) {
        out.append(c);
      } else {
        out.append('%').append(String.format("%02X", b));
      }
    }
    return path.startsWith("/") ? "file://" + out : out.toString();
  }
}
