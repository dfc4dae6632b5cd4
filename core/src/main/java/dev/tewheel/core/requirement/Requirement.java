package dev.tewheel.core.requirement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code Requires-Dist} value (PEP 508: {@code name [extras] (specifiers | @ url) ; marker}), read as pip 23
 * reads it with its vendored packaging: the same accepted spellings (parenthesised specifiers, space between
 * tokens, pip's legacy clauses), the same name normalisation, and the same refusals, which a generated test holds to
 * Debian's python3.
 *
 * @param name the name as written
 * @param extras the extras asked for, as written
 * @param specifiers the version clauses (empty for a URL requirement)
 * @param url the direct reference, or null
 * @param marker the environment marker, or null
 */
public record Requirement(String name, SortedSet<String> extras, SpecifierSet specifiers, String url, Marker marker) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]+(?:[-_.]*[A-Za-z0-9]+)*");
  private static final Pattern PEP440_CLAUSE = Pattern.compile(Specifier.PEP440,
      Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
  private static final Pattern LEGACY_CLAUSE = Pattern.compile(Specifier.LEGACY,
      Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
  private static final Pattern URL = Pattern.compile("[^ ]+");
  private static final Pattern URL_PARTS = Pattern.compile("([A-Za-z][A-Za-z0-9+\\-.]*):(//([^/?#]*))?.*",
      Pattern.DOTALL);

  public Requirement {
    extras = new TreeSet<>(extras);
  }

  /** The name as pip compares names: lower case, each run of {@code -_.} one {@code -}. */
  public String canonicalName() {
    return canonicalize(name);
  }

  /** PEP 503's normal form of a distribution name. */
  public static String canonicalize(String name) {
    return name.replaceAll("[-_.]+", "-").toLowerCase(Locale.ROOT);
  }

  /** The marker's verdict in the environment; true when there is no marker. */
  public boolean appliesIn(java.util.Map<String, String> environment) {
    return marker == null || marker.evaluate(environment);
  }

  public Optional<Marker> markerIfAny() {
    return Optional.ofNullable(marker);
  }

  /**
   * Reads a requirement.
   *
   * @throws IllegalArgumentException naming the text and where pip's grammar stops reading it
   */
  public static Requirement parse(String text) {
    Reader r = new Reader(text);
    r.skip();
    String name = r.match(NAME);
    if (name == null) {
      throw r.refused("a distribution name (letters, digits, then -_. between them)");
    }
    SortedSet<String> extras = new TreeSet<>();
    int mark = r.at;
    r.skip();
    if (r.take("[")) {
      extras.addAll(commaList(r, in -> in.skipThen(NAME)));
      r.skip();
      if (!r.take("]")) {
        throw r.refused("']' closing the extras");
      }
    } else {
      r.at = mark;
    }
    String url = null;
    SpecifierSet specifiers = new SpecifierSet(List.of());
    mark = r.at;
    r.skip();
    if (r.take("@")) {
      url = r.skipThen(URL);
      if (url == null) {
        throw r.refused("a URL after '@'");
      }
    } else {
      r.at = mark;
      specifiers = SpecifierSet.parse(versionSpec(r));
    }
    Marker marker = null;
    mark = r.at;
    r.skip();
    if (r.take(";")) {
      int[] end = new int[1];
      marker = Marker.parsePrefix(text, r.at, end);
      if (marker == null) {
        throw r.refused("an environment marker after ';'");
      }
      r.at = end[0];
    } else {
      r.at = mark;
    }
    if (r.skip() != text.length()) {
      throw r.refused(url == null ? "a version specifier, ';' and a marker, or the end" : "';' and a marker, or the end");
    }
    if (url != null) {
      checkUrl(text, url);
    }
    return new Requirement(name, extras, specifiers, url, marker);
  }

  /** The version part: clauses, each PEP 440's or else pip's legacy form (the longer), maybe in parentheses. */
  private static String versionSpec(Reader r) {
    int mark = r.at;
    r.skip();
    if (r.take("(")) {
      String many = clauses(r);
      if (many != null) {
        r.skip();
        if (r.take(")")) {
          return many;
        }
      }
    }
    r.at = mark;
    String many = clauses(r);
    if (many == null) {
      r.at = mark;
      return "";
    }
    return many;
  }

  private static String clauses(Reader r) {
    List<String> all = commaList(r, Requirement::clause);
    return all.isEmpty() ? null : String.join(",", all);
  }

  /**
   * What {@code item} reads, then again after each comma (extras, specifier clauses); a comma that no item follows
   * is left unread, as packaging's grammar leaves it for the caller to refuse.
   */
  private static List<String> commaList(Reader r, Function<Reader, String> item) {
    String first = item.apply(r);
    if (first == null) {
      return List.of();
    }
    List<String> all = new ArrayList<>(List.of(first));
    while (true) {
      int mark = r.at;
      r.skip();
      if (!r.take(",")) {
        r.at = mark;
        break;
      }
      String next = item.apply(r);
      if (next == null) {
        r.at = mark;
        break;
      }
      all.add(next);
    }
    return all;
  }

  /** One clause: the longer of the PEP 440 and the legacy reading, PEP 440's on a tie. */
  private static String clause(Reader r) {
    r.skip();
    int pep440 = r.lookingAt(PEP440_CLAUSE);
    int legacy = r.lookingAt(LEGACY_CLAUSE);
    int length = Math.max(pep440, legacy);
    if (length < 0) {
      return null;
    }
    String clause = r.text.substring(r.at, r.at + length);
    r.at += length;
    return clause;
  }

  /** pip's URL rule: a file: URL must read back unchanged, any other needs a scheme and a host. */
  private static void checkUrl(String text, String url) {
    Matcher m = URL_PARTS.matcher(url);
    boolean ok = m.matches() && (m.group(1).equalsIgnoreCase("file") || m.group(3) != null && !m.group(3).isEmpty());
    if (!ok) {
      throw new IllegalArgumentException("'" + text + "': invalid URL " + url + " (expected scheme://host/...)");
    }
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder(name);
    if (!extras.isEmpty()) {
      out.append('[').append(String.join(",", extras)).append(']');
    }
    if (url != null) {
      out.append(" @ ").append(url).append(marker == null ? "" : " ");
    } else {
      out.append(specifiers);
    }
    if (marker != null) {
      out.append("; ").append(marker);
    }
    return out.toString();
  }

  /** A cursor over the text; between tokens pip's grammar skips space, tab, CR and LF only. */
  private static final class Reader {
    final String text;
    int at;

    Reader(String text) {
      this.text = text;
    }

    int skip() {
      while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
        at++;
      }
      return at;
    }

    boolean take(String token) {
      if (text.startsWith(token, at)) {
        at += token.length();
        return true;
      }
      return false;
    }

    String match(Pattern pattern) {
      int length = lookingAt(pattern);
      if (length < 0) {
        return null;
      }
      String found = text.substring(at, at + length);
      at += length;
      return found;
    }

    String skipThen(Pattern pattern) {
      int mark = at;
      skip();
      String found = match(pattern);
      if (found == null) {
        at = mark;
      }
      return found;
    }

    /** The length of the pattern's match at the cursor, or -1. */
    int lookingAt(Pattern pattern) {
      Matcher m = pattern.matcher(text);
      m.region(at, text.length());
      m.useTransparentBounds(true);
      return m.lookingAt() ? m.end() - at : -1;
    }

    IllegalArgumentException refused(String expected) {
      return new IllegalArgumentException("'" + text + "' is no PEP 508 requirement: expected " + expected
          + " at position " + at);
    }
  }
}
