package dev.tewheel.core.wheel;

import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A wheel's METADATA (core metadata, RFC 822 style headers then an optional body): generated from fields, or taken
 * from a given file with its {@code Name:} renamed for a CUDA-major variant.
 */
public final class Metadata {
  private static final Pattern NAME = Pattern.compile("(?m)^Name:[ \\t]*(\\S+)[ \\t]*$");
  private static final Pattern VERSION = Pattern.compile("(?m)^Version:[ \\t]*(\\S+)[ \\t]*$");

  private Metadata() {}

  /**
   * Fields of a generated METADATA; null or empty ones are left out.
   *
   * @param requiresDist one {@code Requires-Dist:} line each
   */
  public record Fields(String summary, String requiresPython, List<String> requiresDist, String license,
      String homePage) {
    public Fields {
      requiresDist = requiresDist == null ? List.of() : List.copyOf(requiresDist);
      HeaderValues.requireOneLine("summary", summary);
      HeaderValues.requireOneLine("requiresPython", requiresPython);
      HeaderValues.requireOneLine("requiresDist", requiresDist);
      HeaderValues.requireOneLine("license", license);
      HeaderValues.requireOneLine("homePage", homePage);
    }

    public static Fields none() {
      return new Fields(null, null, List.of(), null, null);
    }
  }

  /**
   * The Requires-Dist values pack adds after the user's own (declareFloors), and the extra they are under.
   *
   * @param requirements each a Requires-Dist value, e.g. {@code nvidia-nccl-cu12>=2.30.4}
   * @param extra the extra (Provides-Extra) the lines are under, or null
   */
  public record Declared(List<String> requirements, String extra) {
    public Declared {
      requirements = List.copyOf(requirements);
      HeaderValues.requireOneLine("declared floor", requirements);
      HeaderValues.requireOneLine("floorExtra", extra);
    }

    /** The header lines to add to a METADATA that holds {@code text}: Provides-Extra when not yet there. */
    List<String> lines(String text) {
      List<String> lines = new java.util.ArrayList<>();
      if (extra != null && !requirements.isEmpty() && headers(text, "Provides-Extra").stream()
          .noneMatch(h -> h.value().equals(extra))) {
        lines.add("Provides-Extra: " + extra);
      }
      requirements.forEach(r -> lines.add("Requires-Dist: " + r));
      return lines;
    }
  }

  /** A METADATA text with the declared lines added at the end of its headers; {@code declared} may be null. */
  public static String declare(String text, Declared declared) {
    return declared == null ? text : withHeaders(text, declared.lines(text));
  }

  /** Metadata-Version 2.1 with Name and Version first, then the fields given. */
  public static String generate(String name, String version, Fields fields) {
    StringBuilder out = new StringBuilder();
    out.append("Metadata-Version: 2.1\n").append("Name: ").append(name).append('\n')
        .append("Version: ").append(version).append('\n');
    line(out, "Summary", fields.summary());
    line(out, "Home-page", fields.homePage());
    line(out, "License", fields.license());
    line(out, "Requires-Python", fields.requiresPython());
    for (String requirement : fields.requiresDist()) {
      line(out, "Requires-Dist", requirement);
    }
    return out.toString();
  }

  /**
   * A given METADATA for the wheel being packed: its Version must be the wheel's, and for a CUDA-major variant its
   * Name becomes {@code <name>-cu<N>} or {@code <name>_cu<N>} (the separator the name already uses), as TE's
   * release script's sed does.
   *
   * @throws IllegalArgumentException when Name or Version is missing, Version differs, or a header line holds a line
   *     break ({@link HeaderValues#requireHeaderLines})
   */
  public static String adapt(String text, String version, Integer cudaMajor, String source) {
    HeaderValues.requireHeaderLines(text, source);
    Matcher name = NAME.matcher(text);
    if (!name.find()) {
      throw new IllegalArgumentException(source + " has no 'Name:' line: expected core metadata (PEP 566)");
    }
    Matcher declared = VERSION.matcher(text);
    if (!declared.find()) {
      throw new IllegalArgumentException(source + " has no 'Version:' line: expected core metadata (PEP 566)");
    }
    if (!declared.group(1).equals(version)) {
      throw new IllegalArgumentException(source + " says Version: " + declared.group(1) + " but the wheel's version is "
          + version + ": pack the version the metadata was generated for, or regenerate it");
    }
    if (cudaMajor == null) {
      return text;
    }
    return text.substring(0, name.start(1)) + variantName(name.group(1), cudaMajor) + text.substring(name.end(1));
  }

  /** {@code transformer-engine} → {@code transformer-engine-cu12}; {@code transformer_engine} → {@code ..._cu12}. */
  public static String variantName(String name, int cudaMajor) {
    Objects.requireNonNull(name, "name");
    if (cudaMajor <= 0) {
      throw new IllegalArgumentException("cudaMajor must be a positive CUDA major version, e.g. 12; got " + cudaMajor);
    }
    String separator = name.contains("-") && !name.contains("_") ? "-" : "_";
    return name + separator + "cu" + cudaMajor;
  }

  /** The most of a METADATA a check reads: it holds the long description (a README), rarely over a megabyte. */
  public static final int MAX_BYTES = 16 << 20;

  /** The Version: value of a METADATA text; null when it has none. */
  public static String version(String text) {
    Matcher version = VERSION.matcher(text);
    return version.find() ? version.group(1) : null;
  }

  /** The Name: value of a METADATA text. */
  public static String name(String text) {
    Matcher name = NAME.matcher(text);
    return name.find() ? name.group(1) : null;
  }

  /** One header of a METADATA: its line (1-based) and its value, trimmed. */
  public record Header(int line, String value) {}

  /**
   * Every value of a header (e.g. Requires-Dist) in the header block, which ends at the first empty line; the name is
   * matched without regard to case, as Python's email parser does.
   */
  public static List<Header> headers(String text, String key) {
    List<Header> found = new java.util.ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
      if (line.isEmpty()) {
        break;
      }
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(key)) {
        found.add(new Header(i + 1, line.substring(colon + 1).trim()));
      }
    }
    return found;
  }

  /**
   * The METADATA text with {@code lines} (whole header lines, without line breaks) added at the end of its header
   * block, after the headers already there and before the body.
   */
  public static String withHeaders(String text, List<String> lines) {
    if (lines.isEmpty()) {
      return text;
    }
    lines.forEach(l -> HeaderValues.requireOneLine("declared floor", l));
    int end = text.indexOf("\n\n");
    String head = end < 0 ? text : text.substring(0, end + 1);
    String tail = end < 0 ? "" : text.substring(end + 1);
    StringBuilder out = new StringBuilder(head);
    if (!head.isEmpty() && !head.endsWith("\n")) {
      out.append('\n');
    }
    lines.forEach(l -> out.append(l).append('\n'));
    return out.append(tail).toString();
  }

  private static void line(StringBuilder out, String key, String value) {
    if (value != null && !value.isBlank()) {
      HeaderValues.requireOneLine(key, value);
      out.append(key).append(": ").append(value.trim()).append('\n');
    }
  }
}
