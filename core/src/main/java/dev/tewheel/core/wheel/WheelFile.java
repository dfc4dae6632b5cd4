package dev.tewheel.core.wheel;

import dev.tewheel.core.zip.WheelArchive;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The dist-info folder's WHEEL file (PEP 427), parsed and written here only: {@code Wheel-Version},
 * {@code Generator}, {@code Root-Is-Purelib}, an optional {@code Build} and one {@code Tag} line per tag.
 *
 * @param wheelVersion e.g. 1.0; null when the file has no such line
 * @param generator e.g. "te-wheel 0.1.0"; null when absent
 * @param rootIsPurelib the line's value as written ("false"); null when absent
 * @param build the build tag, or null
 * @param tags the Tag lines in file order
 */
public record WheelFile(String wheelVersion, String generator, String rootIsPurelib, String build,
    List<String> tags) {
  /** WHEEL is a few hundred bytes; readers refuse more, so a hostile one is never read whole. */
  public static final int MAX_BYTES = 64 << 10;

  public WheelFile {
    tags = List.copyOf(tags);
  }

  /** The WHEEL pack writes for a platform wheel of {@code name}: Wheel-Version 1.0, not purelib, its tags. */
  public static WheelFile platformWheel(WheelName name, String generator) {
    return new WheelFile("1.0", Objects.requireNonNull(generator), "false", name.build().orElse(null), name.tags());
  }

  /** Parses WHEEL's {@code Key: value} lines; keys are case-insensitive, unknown ones and continuations skipped. */
  public static WheelFile parse(String text) {
    String version = null;
    String generator = null;
    String purelib = null;
    String build = null;
    List<String> tags = new ArrayList<>();
    for (String line : HeaderValues.lines(text)) { // every line break any Python's email parser splits at
      int colon = line.indexOf(':');
      if (colon <= 0 || Character.isWhitespace(line.charAt(0))) {
        continue;
      }
      String key = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = line.substring(colon + 1).trim();
      switch (key) {
        case "wheel-version" -> version = value;
        case "generator" -> generator = value;
        case "root-is-purelib" -> purelib = value;
        case "build" -> build = value;
        case "tag" -> tags.add(value);
        default -> { }
      }
    }
    return new WheelFile(version, generator, purelib, build, tags);
  }

  /**
   * The WHEEL file of the wheel's dist-info folder ({@link DistInfo#folder}); empty when there is none
   * or it is over {@link #MAX_BYTES} (WHEEL-TAGS reports both).
   */
  public static Optional<WheelFile> of(WheelArchive wheel) {
    Optional<String> folder = DistInfo.folder(wheel);
    if (folder.isEmpty()) {
      return Optional.empty();
    }
    try {
      return wheel.text(folder.get() + "/WHEEL", MAX_BYTES).map(WheelFile::parse);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * The platform parts of the Tag lines, a compressed one ({@code py3-none-a.b}) expanded as installers expand it;
   * a line that is not {@code python-abi-platform} gives none (WHEEL-TAGS reports it).
   */
  public List<String> platformTags() {
    List<String> platforms = new ArrayList<>();
    for (String tag : tags) {
      String[] parts = tag.split("-", -1);
      if (parts.length == 3) {
        for (String platform : parts[2].split("\\.", -1)) {
          if (!platform.isEmpty() && !platforms.contains(platform)) {
            platforms.add(platform);
          }
        }
      }
    }
    return platforms;
  }

  /** The file's text, lines in PEP 427's order, each ending with a new line. */
  public String text() {
    StringBuilder out = new StringBuilder();
    line(out, "Wheel-Version", wheelVersion);
    line(out, "Generator", generator);
    line(out, "Root-Is-Purelib", rootIsPurelib);
    line(out, "Build", build);
    tags.forEach(tag -> line(out, "Tag", tag));
    return out.toString();
  }

  private static void line(StringBuilder out, String key, String value) {
    if (value != null) {
      out.append(key).append(": ").append(value).append('\n');
    }
  }
}
