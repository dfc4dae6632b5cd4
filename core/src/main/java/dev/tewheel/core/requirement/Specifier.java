package dev.tewheel.core.requirement;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One clause of a version specifier ({@code >=2.30.4}, {@code ==2.*}, {@code ~=2.2}), with the meaning pip's
 * packaging gives it: which versions it contains, when it admits pre-releases. A clause PEP 440 does not allow but
 * pip still reads ({@code >=1.0.foo}: a legacy clause) is kept as {@link #legacy()}; it contains no PEP 440
 * version, as in pip.
 *
 * @param operator one of {@code ~= == != <= >= < > ===}
 * @param version the version as written (pip compares {@code ==X.*} and {@code ===X} by the written text)
 * @param legacy whether only pip's legacy reading accepts it
 */
public record Specifier(String operator, String version, boolean legacy) {
  private static final String S = PyVersion.SPACE;
  private static final String PRE = "(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview)[-_.]?[0-9]*)?";
  private static final String POST = "(?:(?:-[0-9]+)|(?:[-_.]?(?:post|rev|r)[-_.]?[0-9]*))?";
  private static final String DEV = "(?:[-_.]?dev[-_.]?[0-9]*)?";
  private static final String LOCAL = "(?:\\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?";
  private static final String EPOCH_RELEASE = "v?(?:[0-9]+!)?[0-9]+(?:\\.[0-9]+)*";
  /** PEP 440's forms of a clause, per operator group, as packaging's specifier pattern. */
  static final String PEP440 = "(?<op>~=|==|!=|<=|>=|<|>|===)(?<version>"
      + "(?:(?<====)" + S + "*[^" + PyVersion.SPACE_CHARS + "]*)"
      + "|(?:(?<===|!=)" + S + "*" + EPOCH_RELEASE + PRE + POST + "(?:" + DEV + LOCAL + "|\\.\\*)?)"
      + "|(?:(?<=~=)" + S + "*v?(?:[0-9]+!)?[0-9]+(?:\\.[0-9]+)+" + PRE + POST + DEV + ")"
      + "|(?:(?<!==|!=|~=)" + S + "*" + EPOCH_RELEASE + PRE + POST + DEV + "))";
  /** pip's legacy clause: an operator and anything up to a comma, semicolon, space or parenthesis. */
  static final String LEGACY = "(?<lop>==|!=|<=|>=|<|>)" + S + "*(?<lversion>[^,;)" + PyVersion.SPACE_CHARS + "]*)";
  private static final Pattern WHOLE = Pattern.compile("^" + S + "*" + PEP440 + S + "*$",
      Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
  private static final Pattern WHOLE_LEGACY = Pattern.compile("^" + S + "*" + LEGACY + S + "*$",
      Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
  private static final Pattern PREFIX = Pattern.compile("^([0-9]+)((?:a|b|c|rc)[0-9]+)$");

  /**
   * Reads one clause as pip's SpecifierSet reads each comma-separated part: PEP 440 first, else legacy.
   *
   * @throws IllegalArgumentException when neither reading accepts it
   */
  public static Specifier parse(String text) {
    Matcher m = WHOLE.matcher(text);
    if (m.matches()) {
      return new Specifier(m.group("op"), strip(m.group("version")), false);
    }
    Matcher l = WHOLE_LEGACY.matcher(text);
    if (l.matches()) {
      return new Specifier(l.group("lop"), strip(l.group("lversion")), true);
    }
    throw new IllegalArgumentException("'" + text.strip() + "' is no version specifier (e.g. >=2.30.4)");
  }

  /** Python's str.strip(): Unicode white space off both ends. */
  static String strip(String text) {
    return text.replaceAll("^" + S + "+|" + S + "+$", "");
  }

  /** Whether this clause, read alone, admits pre-releases: it names one with an inclusive operator. */
  public boolean prereleases() {
    if (legacy || !List.of("==", ">=", "<=", "~=", "===").contains(operator)) {
      return false;
    }
    String v = operator.equals("==") && version.endsWith(".*") ? version.substring(0, version.length() - 2) : version;
    return PyVersion.isValid(v) && PyVersion.parse(v).isPrerelease();
  }

  /** Whether the version satisfies this clause, pre-releases admitted as {@code prereleases} says. */
  public boolean contains(PyVersion item, boolean prereleases) {
    if (legacy) {
      return false; // pip compares a legacy clause with legacy versions only
    }
    if (item.isPrerelease() && !prereleases) {
      return false;
    }
    return switch (operator) {
      case "~=" -> compatible(item);
      case "==" -> equal(item, version);
      case "!=" -> !equal(item, version);
      case "<=" -> item.publicVersion().compareTo(PyVersion.parse(version)) <= 0;
      case ">=" -> item.publicVersion().compareTo(PyVersion.parse(version)) >= 0;
      case "<" -> less(item);
      case ">" -> greater(item);
      case "===" -> item.toString().toLowerCase(java.util.Locale.ROOT)
          .equals(version.toLowerCase(java.util.Locale.ROOT));
      default -> throw new IllegalStateException(operator);
    };
  }

  /**
   * The lowest version this clause lets pip install, when it bounds from below: {@code >=V}, {@code ==V},
   * {@code ~=V} and {@code ===V} give V, {@code ==V.*} gives V; {@code >V} gives V though V itself is excluded.
   */
  public Optional<PyVersion> lowerBound() {
    if (legacy) {
      return Optional.empty();
    }
    String v = operator.equals("==") && version.endsWith(".*") ? version.substring(0, version.length() - 2) : version;
    if (!List.of(">=", "==", "~=", "===", ">").contains(operator) || !PyVersion.isValid(v)) {
      return Optional.empty();
    }
    return Optional.of(PyVersion.parse(v));
  }

  private boolean compatible(PyVersion item) {
    List<String> parts = new ArrayList<>();
    for (String segment : split(version)) {
      if (List.of("dev", "a", "b", "rc", "post").stream().anyMatch(segment::startsWith)) {
        break;
      }
      parts.add(segment);
    }
    String prefix = String.join(".", parts.subList(0, parts.size() - 1)) + ".*";
    return item.publicVersion().compareTo(PyVersion.parse(version)) >= 0 && equal(item, prefix);
  }

  private static boolean equal(PyVersion item, String spec) {
    if (spec.endsWith(".*")) {
      List<String> wanted = split(spec.substring(0, spec.length() - 2));
      List<String> have = split(item.publicVersion().toString());
      List<String> shortened = have.subList(0, Math.min(wanted.size(), have.size()));
      List<List<String>> padded = pad(wanted, shortened);
      return padded.get(0).equals(padded.get(1));
    }
    PyVersion target = PyVersion.parse(spec);
    return (target.hasLocal() ? item : item.publicVersion()).equals(target);
  }

  private boolean less(PyVersion item) {
    PyVersion spec = PyVersion.parse(version);
    if (item.compareTo(spec) >= 0) {
      return false;
    }
    return spec.isPrerelease() || !item.isPrerelease() || !item.baseVersion().equals(spec.baseVersion());
  }

  private boolean greater(PyVersion item) {
    PyVersion spec = PyVersion.parse(version);
    if (item.compareTo(spec) <= 0) {
      return false;
    }
    if (!spec.isPostrelease() && item.isPostrelease() && item.baseVersion().equals(spec.baseVersion())) {
      return false;
    }
    return !item.hasLocal() || !item.baseVersion().equals(spec.baseVersion());
  }

  /** packaging's split of a version text: at dots, and {@code 1a1} into {@code 1}, {@code a1}. */
  private static List<String> split(String text) {
    List<String> out = new ArrayList<>();
    for (String item : text.split("\\.", -1)) {
      Matcher m = PREFIX.matcher(item);
      if (m.matches()) {
        out.add(m.group(1));
        out.add(m.group(2));
      } else {
        out.add(item);
      }
    }
    return out;
  }

  /** packaging's padding: the release parts of the shorter side filled with zeros. */
  private static List<List<String>> pad(List<String> left, List<String> right) {
    int l = digits(left);
    int r = digits(right);
    List<String> a = new ArrayList<>(left.subList(0, l));
    for (int i = l; i < r; i++) {
      a.add("0");
    }
    a.addAll(left.subList(l, left.size()));
    List<String> b = new ArrayList<>(right.subList(0, r));
    for (int i = r; i < l; i++) {
      b.add("0");
    }
    b.addAll(right.subList(r, right.size()));
    return List.of(a, b);
  }

  /** How many leading parts are all digits (Python's str.isdigit, here ASCII as versions are). */
  private static int digits(List<String> parts) {
    int n = 0;
    while (n < parts.size() && !parts.get(n).isEmpty() && parts.get(n).chars().allMatch(Character::isDigit)) {
      n++;
    }
    return n;
  }

  @Override
  public String toString() {
    return operator + version;
  }
}
