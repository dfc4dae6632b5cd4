package dev.tewheel.core.requirement;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An environment marker ({@code sys_platform == "linux" and extra == "floors"}), read and evaluated as pip does
 * (its vendored packaging): {@code and} binds tighter than {@code or}; a comparison whose operator and right side
 * form a version specifier compares versions ({@link Specifier}), else strings; {@code in} and {@code not in} test
 * substrings; a name the environment lacks is an error.
 */
public final class Marker {
  /** The variables pip knows, in the order its grammar tries them; dotted names are aliases. */
  private static final List<String> VARIABLES = List.of("implementation_version", "platform_python_implementation",
      "implementation_name", "python_full_version", "platform_release", "platform_version", "platform_machine",
      "platform_system", "python_version", "sys_platform", "os_name", "os.name", "sys.platform", "platform.version",
      "platform.machine", "platform.python_implementation", "python_implementation", "extra");
  private static final Map<String, String> ALIASES = Map.of("os.name", "os_name", "sys.platform", "sys_platform",
      "platform.version", "platform_version", "platform.machine", "platform_machine",
      "platform.python_implementation", "platform_python_implementation", "python_implementation",
      "platform_python_implementation");
  private static final List<String> OPERATORS = List.of("===", "==", ">=", "<=", "!=", "~=", ">", "<", "not in",
      "in");

  /** A node: a comparison, or a group (parenthesised, or the whole) of nodes joined by and/or. */
  private sealed interface Node permits Comparison, Group {}

  /** One side of a comparison: a variable or a quoted value. */
  private record Side(String text, boolean variable) {}

  private record Comparison(Side left, String operator, Side right) implements Node {}

  /** Nodes with the and/or between them: {@code joins.get(i)} joins nodes i and i+1. */
  private record Group(List<Node> nodes, List<String> joins) implements Node {}

  /** A marker that cannot be evaluated in an environment (an unknown name, an operator strings do not have). */
  public static final class EvaluationException extends IllegalArgumentException {
    EvaluationException(String message) {
      super(message);
    }
  }

  private final String text;
  private final Group root;

  private Marker(String text, Group root) {
    this.text = text;
    this.root = root;
  }

  /** The marker as written. */
  @Override
  public String toString() {
    return text;
  }

  /**
   * Reads a whole marker.
   *
   * @throws IllegalArgumentException saying where it stops being one
   */
  public static Marker parse(String text) {
    Parser parser = new Parser(text, 0);
    Group group = parser.expression();
    if (group == null || parser.skipSpace() != text.length()) {
      throw new IllegalArgumentException("'" + text + "' is no environment marker (at position " + parser.at + ")");
    }
    return new Marker(text, group);
  }

  /**
   * Reads the longest marker that starts at {@code from}, as pip's requirement grammar does after a semicolon;
   * null when none does.
   */
  static Marker parsePrefix(String text, int from, int[] end) {
    Parser parser = new Parser(text, from);
    int start = parser.skipSpace();
    Group group = parser.expression();
    if (group == null) {
      return null;
    }
    end[0] = parser.at;
    return new Marker(text.substring(start, parser.at), group);
  }

  /**
   * Evaluates the marker in an environment (every variable pip's environment has, plus {@code extra}).
   *
   * @throws EvaluationException where pip raises
   */
  public boolean evaluate(Map<String, String> environment) {
    return evaluate(root, environment);
  }

  private static boolean evaluate(Group group, Map<String, String> environment) {
    List<List<Boolean>> ors = new ArrayList<>();
    ors.add(new ArrayList<>());
    for (int i = 0; i < group.nodes().size(); i++) {
      if (i > 0 && group.joins().get(i - 1).equals("or")) {
        ors.add(new ArrayList<>());
      }
      Node node = group.nodes().get(i);
      ors.get(ors.size() - 1).add(node instanceof Group g ? evaluate(g, environment)
          : compare((Comparison) node, environment));
    }
    return ors.stream().anyMatch(all -> all.stream().allMatch(b -> b));
  }

  private static boolean compare(Comparison c, Map<String, String> environment) {
    String left;
    String right;
    if (c.left().variable()) {
      left = value(environment, c.left().text());
      right = c.right().text(); // pip takes the right side's text as it stands, even a variable's name
    } else {
      left = c.left().text();
      right = value(environment, c.right().text());
    }
    Specifier spec = null;
    try {
      spec = Specifier.parse(c.operator() + right);
    } catch (IllegalArgumentException e) {
      // no version comparison: strings are compared below
    }
    if (spec != null && !spec.legacy()) {
      return versionContains(spec, left);
    }
    return switch (c.operator()) {
      case "in" -> right.contains(left);
      case "not in" -> !right.contains(left);
      case "<" -> compareCodePoints(left, right) < 0;
      case "<=" -> compareCodePoints(left, right) <= 0;
      case "==" -> left.equals(right);
      case "!=" -> !left.equals(right);
      case ">=" -> compareCodePoints(left, right) >= 0;
      case ">" -> compareCodePoints(left, right) > 0;
      default -> throw new EvaluationException("operator " + c.operator() + " cannot compare '" + left + "' and '"
          + right + "' as versions");
    };
  }

  /** A clause read alone containing an environment's value: a value that is no version matches only ===. */
  private static boolean versionContains(Specifier spec, String value) {
    if (!PyVersion.isValid(value)) {
      return spec.operator().equals("===") && value.toLowerCase(java.util.Locale.ROOT)
          .equals(spec.version().toLowerCase(java.util.Locale.ROOT));
    }
    return spec.contains(PyVersion.parse(value), spec.prereleases());
  }

  private static String value(Map<String, String> environment, String name) {
    String value = environment.get(name);
    if (value == null) {
      throw new EvaluationException("'" + name + "' is no name of the marker environment");
    }
    return value;
  }

  /** Python's str order: by code point, not by UTF-16 unit. */
  private static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int p = a.codePointAt(i);
      int q = b.codePointAt(j);
      if (p != q) {
        return Integer.compare(p, q);
      }
      i += Character.charCount(p);
      j += Character.charCount(q);
    }
    return i < a.length() ? 1 : j < b.length() ? -1 : 0;
  }

  /** A recursive-descent reading of pip's marker grammar; between tokens it skips space, tab, CR and LF only. */
  private static final class Parser {
    private final String text;
    private int at;

    Parser(String text, int at) {
      this.text = text;
      this.at = at;
    }

    int skipSpace() {
      while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
        at++;
      }
      return at;
    }

    /** atom (and|or expression)*, flattened as pip's grammar does; null when no atom starts here. */
    Group expression() {
      List<Node> nodes = new ArrayList<>();
      List<String> joins = new ArrayList<>();
      Node first = atom();
      if (first == null) {
        return null;
      }
      nodes.add(first);
      while (true) {
        int mark = at;
        skipSpace();
        String join = text.startsWith("and", at) ? "and" : text.startsWith("or", at) ? "or" : null;
        if (join == null) {
          at = mark;
          break;
        }
        at += join.length();
        Node next = atom();
        if (next == null) {
          at = mark;
          break;
        }
        nodes.add(next);
        joins.add(join);
      }
      return new Group(nodes, joins);
    }

    Node atom() {
      int mark = at;
      skipSpace();
      if (at < text.length() && text.charAt(at) == '(') {
        at++;
        Group inner = expression();
        if (inner != null) {
          skipSpace();
          if (at < text.length() && text.charAt(at) == ')') {
            at++;
            return inner;
          }
        }
        at = mark;
        return null;
      }
      at = mark;
      Side left = side();
      if (left == null) {
        at = mark;
        return null;
      }
      skipSpace();
      String operator = OPERATORS.stream().filter(o -> text.startsWith(o, at)).findFirst().orElse(null);
      if (operator == null) {
        at = mark;
        return null;
      }
      at += operator.length();
      Side right = side();
      if (right == null) {
        at = mark;
        return null;
      }
      return new Comparison(left, operator, right);
    }

    Side side() {
      skipSpace();
      for (String variable : VARIABLES) {
        if (text.startsWith(variable, at)) {
          at += variable.length();
          return new Side(ALIASES.getOrDefault(variable, variable), true);
        }
      }
      if (at < text.length() && (text.charAt(at) == '\'' || text.charAt(at) == '"')) {
        char quote = text.charAt(at);
        int end = at + 1;
        while (end < text.length() && text.charAt(end) != quote && text.charAt(end) != '\n'
            && text.charAt(end) != '\r') {
          end++;
        }
        if (end < text.length() && text.charAt(end) == quote) {
          String value = text.substring(at + 1, end);
          at = end + 1;
          // pip's grammar turns the two characters \t, \n, \f, \r of a quoted value into the one they name
          return new Side(value.replace("\\t", "\t").replace("\\n", "\n").replace("\\f", "\f").replace("\\r", "\r"),
              false);
        }
      }
      return null;
    }
  }
}
