package dev.tewheel.core.requirement;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A PEP 440 version as pip reads it (its {@code packaging.version.Version}): the same accepted spellings (the
 * {@code v} prefix, {@code alpha}/{@code c}/{@code pre}, {@code -1} as a post-release, {@code _-.} separators, any
 * case), the same normal form ({@link #toString}) and the same order, which a generated test holds to Debian's
 * python3. A string that is no PEP 440 version is refused: pip would read it as a legacy version, which no
 * specifier te-wheel judges orders.
 */
public final class PyVersion implements Comparable<PyVersion> {
  static final String PATTERN = "v?"
      + "(?:(?<epoch>[0-9]+)!)?"
      + "(?<release>[0-9]+(?:\\.[0-9]+)*)"
      + "(?<pre>[-_.]?(?<prel>a|b|c|rc|alpha|beta|pre|preview)[-_.]?(?<pren>[0-9]+)?)?"
      + "(?<post>(?:-(?<postn1>[0-9]+))|(?:[-_.]?(?<postl>post|rev|r)[-_.]?(?<postn2>[0-9]+)?))?"
      + "(?<dev>[-_.]?(?<devl>dev)[-_.]?(?<devn>[0-9]+)?)?"
      + "(?:\\+(?<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?";
  /** Python's {@code \s} in a str pattern: Unicode white space, which the JDK's {@code \s} is not by default. */
  static final String SPACE_CHARS = "\\s\\u001c-\\u001f\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029"
      + "\\u202f\\u205f\\u3000";
  static final String SPACE = "[" + SPACE_CHARS + "]";
  private static final Pattern VERSION = Pattern.compile("^" + SPACE + "*" + PATTERN + SPACE + "*$",
      Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

  private final long epoch;
  private final List<Long> release;
  /** Pre-release letter (a, b, rc) or null. */
  private final String preLetter;
  private final long preNumber;
  private final Long post;
  private final Long dev;
  /** Local segments: Long for a number, lower-case String otherwise; null when there is none. */
  private final List<Object> local;

  private PyVersion(long epoch, List<Long> release, String preLetter, long preNumber, Long post, Long dev,
      List<Object> local) {
    this.epoch = epoch;
    this.release = release;
    this.preLetter = preLetter;
    this.preNumber = preNumber;
    this.post = post;
    this.dev = dev;
    this.local = local;
  }

  /**
   * Reads a version as pip does.
   *
   * @throws IllegalArgumentException naming the text when it is no PEP 440 version
   */
  public static PyVersion parse(String text) {
    Matcher m = text == null ? null : VERSION.matcher(text);
    if (m == null || !m.matches()) {
      throw new IllegalArgumentException("'" + text + "' is no PEP 440 version (e.g. 2.30.4, 1.0rc1, 2!1.0.post1)");
    }
    try {
      List<Long> release = new ArrayList<>();
      for (String part : m.group("release").split("\\.")) {
        release.add(Long.parseLong(part));
      }
      String pre = null;
      long preNumber = 0;
      if (m.group("prel") != null) {
        pre = switch (m.group("prel").toLowerCase(Locale.ROOT)) {
          case "alpha", "a" -> "a";
          case "beta", "b" -> "b";
          default -> "rc"; // c, pre, preview, rc
        };
        preNumber = m.group("pren") == null ? 0 : Long.parseLong(m.group("pren"));
      }
      Long post = null;
      if (m.group("post") != null) {
        String n = m.group("postn1") != null ? m.group("postn1") : m.group("postn2");
        post = n == null ? 0L : Long.parseLong(n);
      }
      Long dev = m.group("dev") == null ? null : m.group("devn") == null ? 0L : Long.parseLong(m.group("devn"));
      List<Object> local = null;
      if (m.group("local") != null) {
        local = new ArrayList<>();
        for (String part : m.group("local").toLowerCase(Locale.ROOT).split("[-_.]")) {
          local.add(part.chars().allMatch(c -> c >= '0' && c <= '9') ? (Object) Long.parseLong(part) : part);
        }
        local = Collections.unmodifiableList(local);
      }
      long epoch = m.group("epoch") == null ? 0 : Long.parseLong(m.group("epoch"));
      return new PyVersion(epoch, List.copyOf(release), pre, preNumber, post, dev, local);
    } catch (NumberFormatException e) {
      // Python's integers have no bound; a number beyond 2^63 is no version a distribution publishes.
      throw new IllegalArgumentException("'" + text + "' has a number too large for te-wheel (at most 19 digits)", e);
    }
  }

  /** Whether the text is a PEP 440 version. */
  public static boolean isValid(String text) {
    try {
      parse(text);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  public boolean isPrerelease() {
    return dev != null || preLetter != null;
  }

  public boolean isPostrelease() {
    return post != null;
  }

  public boolean hasLocal() {
    return local != null;
  }

  /** The version without its local part. */
  public PyVersion publicVersion() {
    return local == null ? this : new PyVersion(epoch, release, preLetter, preNumber, post, dev, null);
  }

  /** Epoch and release only. */
  public PyVersion baseVersion() {
    return new PyVersion(epoch, release, null, 0, null, null, null);
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    if (epoch != 0) {
      out.append(epoch).append('!');
    }
    for (int i = 0; i < release.size(); i++) {
      out.append(i == 0 ? "" : ".").append(release.get(i));
    }
    if (preLetter != null) {
      out.append(preLetter).append(preNumber);
    }
    if (post != null) {
      out.append(".post").append(post);
    }
    if (dev != null) {
      out.append(".dev").append(dev);
    }
    if (local != null) {
      out.append('+');
      for (int i = 0; i < local.size(); i++) {
        out.append(i == 0 ? "" : ".").append(local.get(i));
      }
    }
    return out.toString();
  }

  /**
   * PEP 440's order, as packaging's key: release without trailing zeros; a dev release of no pre- or post-release
   * sorts before every pre-release of its release; no pre-release sorts after any; no post-release before any; no
   * dev release after any; no local part before any, numbers after words within one.
   */
  @Override
  public int compareTo(PyVersion o) {
    int c = Long.compare(epoch, o.epoch);
    if (c != 0) {
      return c;
    }
    List<Long> a = trimmed(release);
    List<Long> b = trimmed(o.release);
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      c = Long.compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    c = Integer.compare(a.size(), b.size());
    if (c != 0) {
      return c;
    }
    c = Integer.compare(preRank(), o.preRank());
    if (c != 0 || preRank() != 1) {
      if (c != 0) {
        return c;
      }
    } else {
      c = preLetter.compareTo(o.preLetter);
      if (c != 0) {
        return c;
      }
      c = Long.compare(preNumber, o.preNumber);
      if (c != 0) {
        return c;
      }
    }
    c = compareMissingLow(post, o.post);
    if (c != 0) {
      return c;
    }
    c = dev == null ? (o.dev == null ? 0 : 1) : o.dev == null ? -1 : Long.compare(dev, o.dev);
    if (c != 0) {
      return c;
    }
    return compareLocal(local, o.local);
  }

  /** 0: a dev release without pre and post (before all); 1: a pre-release; 2: none (after all). */
  private int preRank() {
    if (preLetter == null && post == null && dev != null) {
      return 0;
    }
    return preLetter == null ? 2 : 1;
  }

  private static int compareMissingLow(Long x, Long y) {
    return x == null ? (y == null ? 0 : -1) : y == null ? 1 : Long.compare(x, y);
  }

  private static int compareLocal(List<Object> x, List<Object> y) {
    if (x == null || y == null) {
      return x == null ? (y == null ? 0 : -1) : 1;
    }
    for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
      Object p = x.get(i);
      Object q = y.get(i);
      int c;
      if (p instanceof Long lp && q instanceof Long lq) {
        c = Long.compare(lp, lq);
      } else if (p instanceof String sp && q instanceof String sq) {
        c = sp.compareTo(sq);
      } else {
        c = p instanceof Long ? 1 : -1; // a number sorts after a word
      }
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(x.size(), y.size());
  }

  private static List<Long> trimmed(List<Long> release) {
    int end = release.size();
    while (end > 0 && release.get(end - 1) == 0) {
      end--;
    }
    return release.subList(0, end);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof PyVersion v && compareTo(v) == 0;
  }

  @Override
  public int hashCode() {
    return Objects.hash(epoch, trimmed(release), preLetter, preNumber, post, dev, local);
  }
}
