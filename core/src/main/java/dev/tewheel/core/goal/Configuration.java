package dev.tewheel.core.goal;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.assemble.BuildTimestamp;
import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.policy.PlatformTag;
import dev.tewheel.core.policy.PlatformTags;
import dev.tewheel.core.diff.DiffRequest;
import dev.tewheel.core.diff.DiffRules;
import dev.tewheel.core.doctor.Doctor;
import dev.tewheel.core.doctor.DoctorRequest;
import dev.tewheel.core.gate.GatePolicy;
import dev.tewheel.core.gate.RuleSet;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.gate.Suppression;
import dev.tewheel.core.release.ReleaseMatrix;
import dev.tewheel.core.release.ReleaseRequest;
import dev.tewheel.core.release.ReleaseRules;
import dev.tewheel.core.verify.DeclareFloors;
import dev.tewheel.core.verify.VerifyRequest;
import dev.tewheel.core.wheel.Metadata;
import dev.tewheel.core.pack.PackRequest;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The one reading of the {@link Parameters}: every default applied and every value parsed and checked here, for the
 * goal (from its fields) and the te-wheel command (from its options) alike, into the core requests both run. A
 * value that cannot be used is a {@link ParameterException} naming the parameter, before anything is read or
 * written.
 */
public final class Configuration {
  private final Values values;
  private final Path base;

  /**
   * @param values what the user gave
   * @param base the folder a relative path (a floor library, the staging folder, ...) is taken from, and below which
   *     reports name files relative to it: the project's folder for a goal, the current folder for the command
   */
  public Configuration(Values values, Path base) {
    this.values = values;
    this.base = base;
  }

  /** The folder relative paths are taken from. */
  public Path base() {
    return base;
  }

  /**
   * The layout; {@code any} only where {@code anyAllowed} (verify and diff check wheels built elsewhere, pack writes
   * and checks any wheel; assemble and jar work on TE's wheel_lib).
   */
  public Layout layout(boolean anyAllowed) {
    Layout chosen = parse(Parameters.LAYOUT, () -> Layout.named(text(Parameters.LAYOUT)));
    if (chosen.any() && !anyAllowed) {
      throw ParameterException.of(Parameters.LAYOUT, values.raw(Parameters.LAYOUT), "'any' is for"
          + " te:verify-wheel-lib, te:diff-wheel and te:pack-wheel (te-wheel verify, diff and pack), which check any"
          + " native wheel; this one works on TE's wheel_lib: set default or ep-home", null);
    }
    return chosen;
  }

  /** The platform tag, each tag of a compressed set ({@code a.b}) checked; null when unset (each goal has its own default). */
  public String platformTag() {
    String tag = text(Parameters.PLATFORM_TAG);
    if (tag == null) {
      return null;
    }
    return parse(Parameters.PLATFORM_TAG, () -> PlatformTags.parse(tag).text());
  }

  public Severity failOn() {
    return parse(Parameters.FAIL_ON, () -> GatePolicy.failOn(Severity.parse(text(Parameters.FAIL_ON))));
  }

  /** The severity overrides, each ID known to {@code rules} (checked before anything runs, the valid IDs listed if not). */
  public Map<String, Severity> severities(RuleSet<?> rules) {
    return parse(Parameters.SEVERITIES, () -> {
      Map<String, Severity> parsed = Severity.overrides(values.list(Parameters.SEVERITIES));
      parsed.keySet().forEach(rules::requireKnown);
      return parsed;
    });
  }

  /** The suppressions, each ID known to {@code rules}, as {@link #severities} checks them. */
  public List<Suppression> suppressions(RuleSet<?> rules) {
    return parse(Parameters.SUPPRESSIONS, () -> {
      List<Suppression> parsed = Suppression.parseAll(values.list(Parameters.SUPPRESSIONS));
      parsed.forEach(s -> rules.requireKnown(s.checkId()));
      return parsed;
    });
  }

  /** Where the reports go; null: none are written. */
  public Path reportDirectory() {
    return path(Parameters.REPORT_DIRECTORY);
  }

  public String wheelLibPath() {
    return text(Parameters.WHEEL_LIB_PATH);
  }

  /**
   * The CUDA major of the build, in decimal without leading zeros ({@link CheckSettings#parseCudaMajor}: Maven's
   * {@code Integer.decode} would take {@code 012} for octal 10); null when unset.
   */
  public Integer cudaMajor() {
    String text = text(Parameters.CUDA_MAJOR);
    return text == null ? null : parse(Parameters.CUDA_MAJOR, () -> CheckSettings.parseCudaMajor(text));
  }

  /** NCCL EP's major TE was built against, read as {@link #cudaMajor} is; null when unset. */
  public Integer ncclEpMajor() {
    String text = text(Parameters.NCCL_EP_MAJOR);
    return text == null ? null : parse(Parameters.NCCL_EP_MAJOR, () -> CheckSettings.parseNcclEpMajor(text));
  }

  /** The configured timestamp, else SOURCE_DATE_EPOCH; null when neither is set. */
  public FileTime timestamp() {
    return parse(Parameters.OUTPUT_TIMESTAMP,
        () -> BuildTimestamp.resolve(text(Parameters.OUTPUT_TIMESTAMP)).orElse(null));
  }

  /** The check settings; the platform is filled in from the wheel or this machine by the verifier. */
  public CheckSettings checkSettings() {
    CheckSettings settings = parse(Parameters.INCLUDE_SEARCH_PATH, () -> CheckSettings.of(
        ncclEpMajor(), list(Parameters.FORBIDDEN_NEEDED), list(Parameters.INCLUDE_SEARCH_PATH),
        list(Parameters.EXTERNAL_HEADERS), list(Parameters.ALLOWED_NEEDED)));
    CheckSettings declared = parse(Parameters.CUDA_ARCHITECTURES,
        () -> settings.withCudaArchitectures(list(Parameters.CUDA_ARCHITECTURES))).withCudaMajor(cudaMajor())
        .withFloorLibraries(parse(Parameters.FLOOR_LIBRARIES, this::floorPaths));
    String size = text(Parameters.MAX_WHEEL_SIZE);
    return size == null ? declared
        : parse(Parameters.MAX_WHEEL_SIZE, () -> declared.withMaxWheelSize(CheckSettings.parseSize(size)));
  }

  /** The floor libraries as paths, a relative one taken from {@link #base}. */
  private List<Path> floorPaths() {
    List<Path> paths = new ArrayList<>();
    for (String entry : values.list(Parameters.FLOOR_LIBRARIES)) {
      if (entry == null || entry.isBlank()) {
        throw new IllegalArgumentException("an entry is empty; give each floor library, folder or .whl by its path");
      }
      paths.add(base.resolve(entry.trim())); // a NUL in the text is an InvalidPathException, an IllegalArgument
    }
    return paths;
  }

  /**
   * What to verify and how: verify and pack build their requests here, so both reach the same verdict on the same
   * input.
   *
   * @param whl whether the input is a .whl (else a wheel_lib folder)
   * @param tag the platform tag the libraries must fit; null: from the wheel's file name, else this machine
   * @param reports where the reports go; null: none
   * @param anyAllowed whether layout any may be chosen (verify and pack: yes)
   * @return given the input, the request to verify it
   */
  public Function<Path, VerifyRequest> verification(boolean whl, String tag, Path reports, boolean anyAllowed) {
    BiFunction<VerifyInput, Path, VerifyRequest> requests = verifications(tag, anyAllowed);
    return input -> requests.apply(new VerifyInput(input, whl), reports);
  }

  /**
   * As {@link #verification}, for several inputs: every parameter parsed once, before any input is read.
   *
   * @return given an input and the folder its reports go to (null: none), the request to verify it
   */
  public BiFunction<VerifyInput, Path, VerifyRequest> verifications(String tag, boolean anyAllowed) {
    Layout chosen = layout(anyAllowed);
    CheckSettings settings = checkSettings();
    Severity level = failOn();
    Map<String, Severity> overrides = severities(CheckCatalogue.CHECKS);
    List<Suppression> accepted = suppressions(CheckCatalogue.CHECKS);
    String wheelLibPath = wheelLibPath();
    GatePolicy policy = new GatePolicy(level, overrides, accepted);
    return (input, reports) -> new VerifyRequest(input.wheel() ? new VerifyRequest.Wheel(input.path())
        : new VerifyRequest.Folder(input.path()), wheelLibPath, chosen, tag, settings, policy, reports, base);
  }

  /**
   * The release to verify as one: {@code wheels} (a release folder's, or named one by one), each verified as
   * te:verify-wheel-lib verifies it (its platform and CUDA variant from its name), then RELEASE-MATRIX. Severities
   * and suppressions may name any check or RELEASE-MATRIX.
   *
   * @param origin the release folder, or null
   * @param reports where the release's report goes (each wheel's below it), or null
   */
  public ReleaseRequest release(Path origin, List<Path> wheels, Path reports) {
    Layout chosen = layout(false);
    CheckSettings settings = checkSettings().withCudaMajor(null);
    Severity level = failOn();
    Map<String, Severity> overrides = severities(ReleaseRules.RULES);
    List<Suppression> accepted = suppressions(ReleaseRules.RULES);
    List<Integer> majors = parse(Parameters.EXPECT_CUDA_MAJORS, () -> values.list(Parameters.EXPECT_CUDA_MAJORS)
        .stream().map(t -> CheckSettings.parseCudaMajor(t.replaceFirst("^cu", ""))).toList());
    List<String> platforms = parse(Parameters.EXPECT_PLATFORMS, () -> values.list(Parameters.EXPECT_PLATFORMS)
        .stream().map(t -> {
          if (!t.trim().matches("[a-z0-9_]+")) {
            throw new IllegalArgumentException("'" + t + "' is no architecture or platform tag (e.g. x86_64,"
                + " aarch64, manylinux_2_28_x86_64)");
          }
          return t.trim();
        }).toList());
    Map<String, Severity> wheelOverrides = new java.util.LinkedHashMap<>(overrides);
    wheelOverrides.remove(ReleaseMatrix.ID);
    List<Suppression> wheelAccepted = accepted.stream().filter(a -> !a.checkId().equals(ReleaseMatrix.ID)).toList();
    GatePolicy wheelPolicy = new GatePolicy(level, wheelOverrides, wheelAccepted);
    String wheelLibPath = wheelLibPath();
    return new ReleaseRequest(origin, wheels, majors, platforms, (wheel, folder) -> new VerifyRequest(
        new VerifyRequest.Wheel(wheel), wheelLibPath, chosen, null, settings, wheelPolicy, folder, base), wheelLibPath,
        GatePolicy.of(ReleaseRules.RULES, level, overrides, accepted), reports, base, 0);
  }

  /** The release folder; required by the goal (the command takes its operands). */
  public Path releaseDirectory() {
    return path(Parameters.RELEASE_DIRECTORY);
  }

  /** The diff of {@code current} against {@code baseline}, each a .whl or a wheel_lib folder. */
  public DiffRequest diff(Path baseline, Path current, Path reports) {
    Layout chosen = layout(true);
    Severity level = failOn();
    // The diff's rules have IDs of their own, checked before anything runs.
    Map<String, Severity> overrides = severities(DiffRules.RULES);
    List<Suppression> accepted = suppressions(DiffRules.RULES);
    double growth = parse(Parameters.MAX_GROWTH_PERCENT, () -> number(text(Parameters.MAX_GROWTH_PERCENT)));
    return parse(Parameters.MAX_GROWTH_PERCENT, () -> new DiffRequest(baseline, current, wheelLibPath(), chosen,
        growth, level, overrides, accepted, reports, base));
  }

  /**
   * What pack writes. The platform tag defaults to this machine's, the wheel folder to {@code wheelDirectory}'s
   * default, {@link #base} (the goal gives its own, target/); the WHEEL file's Generator is
   * {@link TeWheelVersion#generator()}.
   */
  public PackRequest pack() {
    Path staging = path(Parameters.STAGING_DIRECTORY);
    if (staging == null) {
      throw ParameterException.missing(Parameters.STAGING_DIRECTORY);
    }
    String tag = platformTag();
    Path wheels = path(Parameters.WHEEL_DIRECTORY);
    Integer cuda = cudaMajor();
    int level = integer(Parameters.COMPRESSION_LEVEL);
    FileTime time = timestamp();
    try {
      // The fields refuse a line break in a header value (HeaderValues), naming the field as the parameter is.
      Metadata.Fields fields = new Metadata.Fields(text(Parameters.SUMMARY), text(Parameters.REQUIRES_PYTHON),
          values.list(Parameters.REQUIRES_DIST), text(Parameters.LICENSE), text(Parameters.HOME_PAGE));
      return new PackRequest(staging, text(Parameters.DISTRIBUTION), text(Parameters.VERSION), cuda,
          text(Parameters.PYTHON_TAG), text(Parameters.ABI_TAG), tag == null ? PlatformTag.ofThisMachine().tag() : tag,
          path(Parameters.METADATA_FILE), fields, level, wheels == null ? base : wheels, time,
          TeWheelVersion.generator());
    } catch (IllegalArgumentException e) {
      throw named(e);
    }
  }

  /**
   * Pack's declareFloors: the floors and variant pack verifies with, and the extra the lines go under; null when
   * declareFloors is false. A floorExtra without declareFloors, or one that is no PEP 508 extra name, is refused.
   */
  public DeclareFloors declareFloors() {
    boolean declare = parse(Parameters.DECLARE_FLOORS, () -> bool(text(Parameters.DECLARE_FLOORS)));
    String extra = text(Parameters.FLOOR_EXTRA);
    if (extra != null) {
      parse(Parameters.FLOOR_EXTRA, () -> {
        if (!extra.matches("[A-Za-z0-9]+(?:[-_.]*[A-Za-z0-9]+)*")) {
          throw new IllegalArgumentException("not an extra's name (letters, digits, then -_. between them), e.g."
              + " floors");
        }
        if (!declare) {
          throw new IllegalArgumentException("floorExtra names the extra of declareFloors's lines, and declareFloors"
              + " is false: set declareFloors=true too, or drop floorExtra");
        }
        return extra;
      });
    }
    return declare ? new DeclareFloors(extra, checkSettings(), layout(false), wheelLibPath()) : null;
  }

  /** Whether pack verifies what it wrote. */
  public boolean packVerifies() {
    return parse(Parameters.VERIFY, () -> bool(text(Parameters.VERIFY)));
  }

  /**
   * A request's own check as a parameter error: PackRequest's messages start with the component, named as the
   * parameter is ("version is required", "compressionLevel must be 0 to 9, got 11").
   */
  private static IllegalArgumentException named(IllegalArgumentException e) {
    String message = e.getMessage() == null ? "" : e.getMessage();
    int space = message.indexOf(' ');
    return space < 0 ? e : Parameters.named(message.substring(0, space))
        .<IllegalArgumentException>map(p -> ParameterException.statement(p, message.substring(space + 1), e))
        .orElse(e);
  }

  /** The text given, else the default; null when neither (blank counts as not given). */
  /**
   * te-wheel doctor's request: {@link Parameters#PYTHON} or {@link Parameters#SITE_PACKAGES} (one of the two), and
   * the job's variables ({@link Doctor#VARIABLES}), {@code current}'s with each {@link Parameters#ENV} over them.
   */
  public DoctorRequest doctor(Function<String, String> current) {
    String python = text(Parameters.PYTHON);
    List<String> sites = values.list(Parameters.SITE_PACKAGES);
    if ((python == null) == sites.isEmpty()) {
      throw ParameterException.statement(Parameters.PYTHON, python == null ? "or --site-packages is required: the"
          + " interpreter the job runs (e.g. .venv/bin/python), or its site-packages folders" : "is given with"
          + " site-packages folders " + sites + "; give one of the two", null);
    }
    Map<String, String> environment = parse(Parameters.ENV,
        () -> DoctorRequest.environment(Doctor.variables(current), values.list(Parameters.ENV)));
    return new DoctorRequest(python == null ? Optional.empty() : Optional.of(base.resolve(python)),
        sites.stream().map(base::resolve).toList(), environment);
  }

  private String text(Parameter parameter) {
    String given = values.text(parameter);
    String text = given == null || given.isBlank() ? parameter.defaultValue() : given.trim();
    return text == null || text.isBlank() ? null : text;
  }

  /** The values given, else the default's comma-separated values; empty when neither. */
  private List<String> list(Parameter parameter) {
    if (values.isSet(parameter) || parameter.defaultValue() == null) {
      return values.list(parameter);
    }
    return List.of(parameter.defaultValue().split(","));
  }

  /** A path parameter, a relative one taken from {@link #base}; null when unset. */
  private Path path(Parameter parameter) {
    String text = text(parameter);
    return text == null ? null : parse(parameter, () -> base.resolve(text));
  }

  private Integer integer(Parameter parameter) {
    String text = text(parameter);
    if (text == null) {
      return null;
    }
    return parse(parameter, () -> {
      try {
        return Integer.parseInt(text);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("not a whole number", e);
      }
    });
  }

  private static double number(String text) {
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a number", e);
    }
  }

  private static boolean bool(String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException("neither true nor false");
    };
  }

  /**
   * Parses one parameter; a malformed value becomes a {@link ParameterException} that echoes it, e.g.
   * {@code te.failOn = 'fatal': severity 'fatal' is none of error, warning, info}.
   */
  private <T> T parse(Parameter parameter, Supplier<T> parse) {
    try {
      return parse.get();
    } catch (ParameterException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw ParameterException.of(parameter, values.raw(parameter), e.getMessage(), e);
    }
  }
}
