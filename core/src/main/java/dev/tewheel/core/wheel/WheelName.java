package dev.tewheel.core.wheel;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * A PEP 427 file name: {@code {distribution}-{version}(-{build tag})?-{python tag}-{abi tag}-{platform tag}.whl},
 * parsed and built here only (pack writes it, WHEEL-TAGS and the verifier read it). Each tag may be a compressed
 * set, {@code manylinux_2_28_x86_64.manylinux2014_x86_64}, meaning each of its parts.
 *
 * <pre>{@code
 * WheelName name = WheelName.parse("transformer_engine_cu12-2.9.0-py3-none-manylinux_2_28_x86_64.whl");
 * name.distribution();  // transformer_engine_cu12
 * name.platforms();     // [manylinux_2_28_x86_64]
 * }</pre>
 */
public record WheelName(String distribution, String version, Optional<String> build, String pythonTag,
    String abiTag, String platformTag) {
  public static final String TEMPLATE =
      "{distribution}-{version}(-{build tag})?-{python tag}-{abi tag}-{platform tag}.whl";
  private static final Pattern DISTRIBUTION = Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9._]*[A-Za-z0-9])?");
  private static final Pattern VERSION = Pattern.compile("[0-9][A-Za-z0-9._+!]*");
  private static final Pattern BUILD = Pattern.compile("[0-9][A-Za-z0-9_.]*");
  private static final Pattern TAG_SET = Pattern.compile("[A-Za-z0-9_]+(\\.[A-Za-z0-9_]+)*");
  private static final Pattern SEPARATORS = Pattern.compile("[-_.]+");

  public WheelName {
    Objects.requireNonNull(distribution, "distribution");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(build, "build");
    Objects.requireNonNull(pythonTag, "pythonTag");
    Objects.requireNonNull(abiTag, "abiTag");
    Objects.requireNonNull(platformTag, "platformTag");
  }

  /**
   * Parses a file name (not a path).
   *
   * @throws Malformed naming the file and what is wrong with it
   */
  public static WheelName parse(String fileName) {
    if (fileName == null || fileName.isEmpty()) {
      throw new Malformed("wheel file name is empty; expected " + TEMPLATE, "it is empty");
    }
    if (!fileName.endsWith(".whl")) {
      throw bad(fileName, "it does not end in .whl");
    }
    String[] parts = fileName.substring(0, fileName.length() - 4).split("-", -1);
    if (parts.length != 5 && parts.length != 6) {
      throw bad(fileName, "it has " + parts.length + " '-'-separated parts, not 5 or 6 (a '-' inside the"
          + " distribution or version must be written '_')");
    }
    for (int i = 0; i < parts.length; i++) {
      if (parts[i].isEmpty()) {
        throw bad(fileName, "part " + (i + 1) + " is empty");
      }
    }
    int tags = parts.length - 3;
    String letters = "letters, digits, '_' and '.'";
    check(fileName, "distribution", parts[0], DISTRIBUTION, letters + " (a '-' is written '_')");
    check(fileName, "version", parts[1], VERSION, "a version that starts with a digit");
    Optional<String> build = Optional.empty();
    if (parts.length == 6) {
      check(fileName, "build tag", parts[2], BUILD, "a build number that starts with a digit");
      build = Optional.of(parts[2]);
    }
    String tagSet = "'.'-separated tags of letters, digits and '_'";
    check(fileName, "python tag", parts[tags], TAG_SET, tagSet);
    check(fileName, "abi tag", parts[tags + 1], TAG_SET, tagSet);
    check(fileName, "platform tag", parts[tags + 2], TAG_SET, tagSet);
    return new WheelName(parts[0], parts[1], build, parts[tags], parts[tags + 1], parts[tags + 2]);
  }

  /** The platform tag's parts: {@code a.b} is {@code [a, b]}. */
  /**
   * The CUDA variant the distribution's name carries, as pack's cudaMajor writes it: 12 for
   * {@code transformer_engine_cu12}; empty for a name without one.
   */
  public OptionalInt cudaMajor() {
    java.util.regex.Matcher m = CUDA_SUFFIX.matcher(distribution);
    return m.find() ? OptionalInt.of(Integer.parseInt(m.group(1))) : OptionalInt.empty();
  }

  /** {@code _cu<N>} ending a distribution name; at most 4 digits, so it always fits an int. */
  private static final Pattern CUDA_SUFFIX = Pattern.compile("[_.-]cu([1-9][0-9]{0,3})$");

  public List<String> platforms() {
    return List.of(platformTag.split("\\."));
  }

  /** Every {python}-{abi}-{platform} combination of the compressed tag sets, as WHEEL's Tag lines must list them. */
  public List<String> tags() {
    List<String> tags = new ArrayList<>();
    for (String python : pythonTag.split("\\.")) {
      for (String abi : abiTag.split("\\.")) {
        for (String platform : platformTag.split("\\.")) {
          tags.add(python + "-" + abi + "-" + platform);
        }
      }
    }
    return tags;
  }

  /** {@code <distribution>-<version>.dist-info}, the folder this name's wheel carries. */
  public String distInfo() {
    return distribution + "-" + version + ".dist-info";
  }

  /** Whether {@code folder} is this name's dist-info folder, compared as installers do (see {@link #normalize}). */
  public boolean isDistInfo(String folder) {
    if (!folder.endsWith(".dist-info")) {
      return false;
    }
    String stem = folder.substring(0, folder.length() - ".dist-info".length());
    return normalize(stem).equals(normalize(distribution + "-" + version));
  }

  /** A distribution name as wheel file names write it: each run of -_. becomes '_', case kept. */
  public static String normalizeDistribution(String name) {
    return SEPARATORS.matcher(name).replaceAll("_");
  }

  /** For comparing names: lower-case, each run of -_. as one '_'. */
  public static String normalize(String name) {
    return SEPARATORS.matcher(name.toLowerCase(Locale.ROOT)).replaceAll("_");
  }

  /** The file name these parts make. */
  public String fileName() {
    return distribution + "-" + version + build.map(b -> "-" + b).orElse("") + "-" + pythonTag + "-" + abiTag + "-"
        + platformTag + ".whl";
  }

  @Override
  public String toString() {
    return fileName();
  }

  private static void check(String fileName, String what, String value, Pattern pattern, String allowed) {
    if (!pattern.matcher(value).matches()) {
      throw bad(fileName, "its " + what + " '" + value + "' is not " + allowed);
    }
  }

  private static Malformed bad(String fileName, String what) {
    return new Malformed("wheel file name '" + fileName + "' is not PEP 427's: " + what + "; expected " + TEMPLATE,
        what);
  }

  /** A name that does not parse; {@link #reason()} says what is wrong on its own, for findings. */
  public static final class Malformed extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final String reason;

    Malformed(String message, String reason) {
      super(message);
      this.reason = reason;
    }

    public String reason() {
      return reason;
    }
  }
}
