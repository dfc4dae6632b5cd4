package dev.tewheel.core.wheel;

import dev.tewheel.core.zip.ZipBombBounds;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The dist-info folder's RECORD (PEP 376/427), parsed and written here only: CSV as Python's csv module writes it,
 * one row per file, {@code path,sha256=<urlsafe base64 without '='>,size}, RECORD's own row with both empty.
 */
public final class RecordFile {
  /**
   * The most bytes of RECORD a reader reads: a row is its path, a 50-character hash and a size, so a wheel of as many
   * files as {@link ZipBombBounds#DEFAULTS} allows ({@value} / 50,000 = 335 bytes a row) fits, and a RECORD of
   * 700,000 rows for files the wheel does not hold is refused before it is read.
   */
  public static final int MAX_BYTES = 16 << 20;

  private static final Pattern HASH = Pattern.compile("sha256=[A-Za-z0-9_-]{43}");

  private final List<String> rows = new ArrayList<>();

  /**
   * One parsed row.
   *
   * @param line the line it starts on (1-based)
   * @param fields its fields, as many as the row has
   */
  public record Row(int line, List<String> fields) {}

  /** Adds a file's row: its path, the hash of {@code sha256} (raw digest bytes) and its size. */
  public RecordFile add(String path, byte[] sha256, long size) {
    rows.add(csv(path) + "," + hash(sha256) + "," + size);
    return this;
  }

  /** Adds RECORD's own row, whose hash and size stay empty. */
  public RecordFile addSelf(String path) {
    rows.add(csv(path) + ",,");
    return this;
  }

  /** The file's bytes, UTF-8, each row ending with a new line. */
  public byte[] bytes() {
    return (String.join("\n", rows) + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /** {@code sha256=<urlsafe base64 without padding>}, the hash field RECORD holds for a digest. */
  public static String hash(byte[] sha256) {
    return "sha256=" + Base64.getUrlEncoder().withoutPadding().encodeToString(sha256);
  }

  /** Whether {@code field} is a sha256 hash field as RECORD writes one. */
  public static boolean isSha256Hash(String field) {
    return HASH.matcher(field).matches();
  }

  /** PEP 427's signatures of RECORD, which RECORD may leave out or list without a hash. */
  public static boolean isSignature(String name, String distInfo) {
    return name.equals(distInfo + "/RECORD.jws") || name.equals(distInfo + "/RECORD.p7s");
  }

  /** A CSV field: quoted when it holds a comma, quote or line break, a quote inside doubled. */
  static String csv(String field) {
    return field.matches("(?s).*[,\"\\r\\n].*") ? "\"" + field.replace("\"", "\"\"") + "\"" : field;
  }

  /**
   * Parses RECORD's CSV: ',' between fields, '"' around fields holding ',', '"' or line breaks, '""' for a quote
   * inside; rows end with \n or \r\n. Blank lines are skipped.
   *
   * @throws IllegalArgumentException when a quote is never closed
   */
  public static List<Row> parse(String text) {
    return parse(text, Integer.MAX_VALUE - 1);
  }

  /**
   * {@link #parse(String)}, stopping after {@code maxRows + 1} rows: a RECORD that lists more files than a wheel may
   * hold ({@link ZipBombBounds#maxEntries()}) is refused as a whole, not turned into a finding per row.
   */
  public static List<Row> parse(String text, int maxRows) {
    List<Row> rows = new ArrayList<>();
    List<String> row = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    boolean fieldStarted = false;
    int line = 1;
    int rowLine = 1;
    int quoteLine = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quoted) {
        if (c == '"') {
          if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
            field.append('"');
            i++;
          } else {
            quoted = false;
          }
        } else {
          if (c == '\n') {
            line++;
          }
          field.append(c);
        }
      } else if (c == '"' && field.length() == 0 && !fieldStarted) {
        quoted = true;
        fieldStarted = true;
        quoteLine = line;
      } else if (c == ',') {
        row.add(field.toString());
        field.setLength(0);
        fieldStarted = false;
      } else if (c == '\n' || c == '\r') {
        if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
          i++;
        }
        if (!row.isEmpty() || field.length() > 0 || fieldStarted) {
          row.add(field.toString());
          rows.add(new Row(rowLine, List.copyOf(row)));
          if (rows.size() > maxRows) {
            return rows;
          }
        }
        row = new ArrayList<>();
        field.setLength(0);
        fieldStarted = false;
        line++;
        rowLine = line;
      } else {
        field.append(c);
        fieldStarted = true;
      }
    }
    if (quoted) {
      throw new IllegalArgumentException("the quote opened on line " + quoteLine + " is never closed");
    }
    if (!row.isEmpty() || field.length() > 0 || fieldStarted) {
      row.add(field.toString());
      rows.add(new Row(rowLine, List.copyOf(row)));
    }
    return rows;
  }
}
