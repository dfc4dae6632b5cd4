package dev.tewheel.core.wheel;

import dev.tewheel.core.check.WheelTagsCheck;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A PEP 427 file name: {@code {distribution}-{version}(-{build tag})?-{python tag}-{abi tag}-{platform tag}.whl}.
 * Each tag may be a compressed set, {@code manylinux_2_28_x86_64.manylinux2014_x86_64}, meaning each of its parts.
 * Parsed by the same code as WHEEL-TAGS uses.
 *
 * <pre>{@code
 * WheelName name = WheelName.parse("transformer_engine_cu12-2.9.0-py3-none-manylinux_2_28_x86_64.whl");
 * name.distribution();  // transformer_engine_cu12
 * name.platforms();     // [manylinux_2_28_x86_64]
 * }</pre>
 */
public record WheelName(String distribution, String version, Optional<String> build, String pythonTag,
    String abiTag, String platformTag) {
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
   * @throws IllegalArgumentException naming the file and what is wrong with it
   */
  public static WheelName parse(String fileName) {
    WheelTagsCheck.FileName parsed = WheelTagsCheck.FileName.parse(fileName);
    return new WheelName(parsed.distribution(), parsed.version(), parsed.build(), parsed.pythonTag(),
        parsed.abiTag(), parsed.platformTag());
  }

  /** The platform tag's parts: {@code a.b} is {@code [a, b]}. */
  public List<String> platforms() {
    return List.of(platformTag.split("\\."));
  }

  /** Every {python}-{abi}-{platform} combination the name stands for, as WHEEL's Tag lines must list them. */
  public List<String> tags() {
    return new WheelTagsCheck.FileName(distribution, version, build, pythonTag, abiTag, platformTag).tags();
  }

  /** A distribution name as wheel file names write it: each run of -_. becomes '_', case kept. */
  public static String normalizeDistribution(String name) {
    return SEPARATORS.matcher(name).replaceAll("_");
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
}
