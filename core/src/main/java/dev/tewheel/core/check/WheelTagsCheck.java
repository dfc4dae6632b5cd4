package dev.tewheel.core.check;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The wheel's name, its one dist-info folder and its WHEEL file agree: the distribution and version of the file
 * name are the dist-info folder's, WHEEL says {@code Wheel-Version: 1.0} and {@code Root-Is-Purelib: false}, and its
 * {@code Tag:} lines are exactly the tags the file name expands to. TE's release repacks its wheel per CUDA major,
 * renaming the file, the folder and the tags by hand: this is where such a repack goes wrong.
 */
public final class WheelTagsCheck implements Check {
  /** WHEEL is a few hundred bytes; this only keeps a hostile one from being read whole. */
  static final int MAX_WHEEL_BYTES = 64 << 10;

  @Override
  public String id() {
    return "WHEEL-TAGS";
  }

  @Override
  public String title() {
    return "the file name, the dist-info folder and WHEEL's Wheel-Version, Root-Is-Purelib and Tag lines agree";
  }

  @Override
  public Severity defaultSeverity() {
    return Severity.ERROR;
  }

  @Override
  public List<Finding> run(Subject subject) {
    if (subject.wheel().isEmpty()) {
      return List.of();
    }
    WheelFacts wheel = subject.wheel().get();
    List<Finding> findings = new ArrayList<>();
    FileName name = null;
    try {
      name = FileName.parse(wheel.fileName());
    } catch (FileName.BadName e) {
      findings.add(finding(wheel.path(), "a file name PEP 427 does not allow: " + e.reason, FileName.TEMPLATE,
          "name the file as the tool that built the wheel did, e.g."
              + " transformer_engine_cu12-2.9.0-py3-none-manylinux_2_28_x86_64.whl"));
    }
    String expectedFolder = name == null ? "<distribution>-<version>.dist-info"
        : name.distribution() + "-" + name.version() + ".dist-info";
    SortedSet<String> folders = distInfoFolders(wheel);
    if (folders.size() != 1) {
      findings.add(finding(wheel.path(), folders.isEmpty() ? "no *.dist-info folder"
          : folders.size() + " dist-info folders (" + String.join(", ", folders) + ")",
          "exactly one dist-info folder, " + expectedFolder, "build the wheel with one tool in one go (wheel pack,"
              + " pip wheel); when repacking, rename the dist-info folder instead of adding one"));
    }
    if (folders.isEmpty()) {
      return findings;
    }
    String folder = distInfoFolder(wheel).orElseGet(() -> folders.stream()
        .filter(f -> wheel.entries().stream().anyMatch(e -> e.name().equals(f + "/WHEEL"))).findFirst()
        .orElse(folders.first()));
    if (name != null && !matches(folder, name)) {
      findings.add(finding(wheel.path() + "!" + folder + "/", "dist-info folder " + folder, expectedFolder
          + " as the file name says (compared lower-case, runs of -_. as one)", "rename the dist-info folder and"
              + " METADATA's Name together with the file (TE's per-CUDA repack renames all three)"));
    }
    checkWheelFile(wheel, folder, name, findings);
    return findings;
  }

  private void checkWheelFile(WheelFacts wheel, String folder, FileName name, List<Finding> findings) {
    String file = wheel.path() + "!" + folder + "/WHEEL";
    Optional<String> text;
    try {
      text = wheel.text(folder + "/WHEEL", MAX_WHEEL_BYTES);
    } catch (IOException e) {
      findings.add(finding(file, "a WHEEL that cannot be read (" + e.getMessage() + ")", "a readable WHEEL file",
          "rebuild the wheel"));
      return;
    }
    if (text.isEmpty()) {
      findings.add(finding(file, "no WHEEL file", "WHEEL with Wheel-Version, Root-Is-Purelib and Tag lines",
          "build the wheel with a PEP 427 tool (wheel pack, pip wheel), which writes WHEEL"));
      return;
    }
    String version = null;
    String purelib = null;
    String build = null;
    SortedSet<String> tags = new TreeSet<>();
    for (String line : text.get().split("\r\n|\r|\n")) {
      int colon = line.indexOf(':');
      if (colon <= 0 || Character.isWhitespace(line.charAt(0))) {
        continue;
      }
      String key = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = line.substring(colon + 1).trim();
      switch (key) {
        case "wheel-version" -> version = value;
        case "root-is-purelib" -> purelib = value;
        case "build" -> build = value;
        case "tag" -> tags.add(value);
        default -> { }
      }
    }
    if (version == null || !version.matches("1(\\.\\d+)?")) {
      findings.add(finding(file, version == null ? "no Wheel-Version line" : "Wheel-Version: " + version,
          "Wheel-Version: 1.0", "write WHEEL as PEP 427 says (wheel pack writes Wheel-Version: 1.0); installers"
              + " refuse a wheel of another major version"));
    }
    if (purelib == null || !purelib.equalsIgnoreCase("false")) {
      findings.add(finding(file, purelib == null ? "no Root-Is-Purelib line" : "Root-Is-Purelib: " + purelib,
          "Root-Is-Purelib: false for a wheel carrying native libraries", "mark the wheel platform-specific"
              + " (Root-Is-Purelib: false; setuptools does so when the distribution has ext_modules or"
              + " has_ext_modules() returns true)"));
    }
    if (name == null) {
      return;
    }
    SortedSet<String> expected = new TreeSet<>(name.tags());
    if (!tags.equals(expected)) {
      SortedSet<String> missing = new TreeSet<>(expected);
      missing.removeAll(tags);
      SortedSet<String> extra = new TreeSet<>(tags);
      extra.removeAll(expected);
      findings.add(finding(file, (tags.isEmpty() ? "no Tag lines" : "Tag: " + String.join(", ", tags))
          + (missing.isEmpty() ? "" : " (missing " + String.join(", ", missing) + ")")
          + (extra.isEmpty() ? "" : " (not in the file name: " + String.join(", ", extra) + ")"),
          "Tag: " + String.join(", ", expected) + ", the tags of the file name " + wheel.fileName(),
          "write one Tag line per python-abi-platform combination of the file name (wheel pack and wheel tags"
              + " keep them in step); when repacking, change the Tag lines and the file name together"));
    }
    if (name.build().isPresent() && !name.build().get().equals(build)) {
      findings.add(finding(file, build == null ? "no Build line" : "Build: " + build,
          "Build: " + name.build().get() + " as the file name says", "write the build tag into WHEEL"
              + " (wheel pack --build-number does both)"));
    }
  }

  private static boolean matches(String folder, FileName name) {
    String stem = folder.substring(0, folder.length() - ".dist-info".length());
    return FileName.normalize(stem).equals(FileName.normalize(name.distribution() + "-" + name.version()));
  }

  /** The top-level folders named *.dist-info, from every entry's name. */
  static SortedSet<String> distInfoFolders(WheelFacts wheel) {
    SortedSet<String> folders = new TreeSet<>();
    for (WheelFacts.Entry entry : wheel.entries()) {
      int slash = entry.name().indexOf('/');
      if (slash > 0 && entry.name().substring(0, slash).endsWith(".dist-info")) {
        folders.add(entry.name().substring(0, slash));
      }
    }
    return folders;
  }

  /**
   * The dist-info folder the file name points at ({@code <dist>-<version>.dist-info}, compared normalized); when
   * the name does not parse or no folder matches, the only dist-info folder there is.
   */
  static Optional<String> distInfoFolder(WheelFacts wheel) {
    SortedSet<String> folders = distInfoFolders(wheel);
    try {
      FileName name = FileName.parse(wheel.fileName());
      for (String folder : folders) {
        if (matches(folder, name)) {
          return Optional.of(folder);
        }
      }
    } catch (IllegalArgumentException e) {
      // WHEEL-TAGS reports the name; the only folder stands in.
    }
    return folders.size() == 1 ? Optional.of(folders.first()) : Optional.empty();
  }

  /**
   * A PEP 427 file name, {@code {distribution}-{version}(-{build tag})?-{python tag}-{abi tag}-{platform tag}.whl},
   * the one parser that both the checks and {@code dev.tewheel.core.wheel.WheelName} use.
   */
  public record FileName(String distribution, String version, Optional<String> build, String pythonTag,
      String abiTag, String platformTag) {
    static final String TEMPLATE = "{distribution}-{version}(-{build tag})?-{python tag}-{abi tag}-{platform tag}.whl";
    private static final Pattern DISTRIBUTION = Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9._]*[A-Za-z0-9])?");
    private static final Pattern VERSION = Pattern.compile("[0-9][A-Za-z0-9._+!]*");
    private static final Pattern BUILD = Pattern.compile("[0-9][A-Za-z0-9_.]*");
    private static final Pattern TAG_SET = Pattern.compile("[A-Za-z0-9_]+(\\.[A-Za-z0-9_]+)*");
    private static final Pattern SEPARATORS = Pattern.compile("[-_.]+");

    /** @throws IllegalArgumentException naming the file and what is wrong with its name */
    public static FileName parse(String fileName) {
      if (fileName == null || fileName.isEmpty()) {
        throw new BadName("wheel file name is empty; expected " + TEMPLATE, "it is empty");
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
      return new FileName(parts[0], parts[1], build, parts[tags], parts[tags + 1], parts[tags + 2]);
    }

    /** Every {python}-{abi}-{platform} combination of the compressed tag sets, in file-name order. */
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

    /** For comparing names: lower-case, each run of -_. as one '_'. */
    public static String normalize(String name) {
      return SEPARATORS.matcher(name.toLowerCase(Locale.ROOT)).replaceAll("_");
    }

    private static void check(String fileName, String what, String value, Pattern pattern, String allowed) {
      if (!pattern.matcher(value).matches()) {
        throw bad(fileName, "its " + what + " '" + value + "' is not " + allowed);
      }
    }

    private static BadName bad(String fileName, String what) {
      return new BadName("wheel file name '" + fileName + "' is not PEP 427's: " + what + "; expected " + TEMPLATE,
          what);
    }

    /** A name that does not parse, with what is wrong on its own for findings. */
    static final class BadName extends IllegalArgumentException {
      private static final long serialVersionUID = 1L;
      final String reason;

      BadName(String message, String reason) {
        super(message);
        this.reason = reason;
      }
    }
  }
}
