package dev.tewheel.core.goal;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.diff.DiffRequest;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.verify.VerifyRequest;
import dev.tewheel.core.pack.PackRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every parameter a goal shares with its te-wheel command, named, defaulted and described once: the Mojos declare
 * their {@code @Parameter}s with these names and default constants, the command offers these options, and both hand
 * the values to {@link Configuration}. {@code ParametersMatchTheGoalsTest} holds the plugin's descriptor to this
 * list.
 */
public final class Parameters {
  private Parameters() {}

  public static final Parameter WHEEL_LIB_PATH = Parameter.single("wheelLibPath", "PATH",
      VerifyRequest.DEFAULT_WHEEL_LIB_PATH, "where wheel_lib sits inside a wheel");
  public static final Parameter LAYOUT = Parameter.single("layout", "NAME", Layout.DEFAULT_NAME,
      "default (TE's release tree), ep-home (wheel_lib/nccl_ep is a whole NCCL_EP_HOME) or, for verify and diff"
          + " only, any (any native wheel: the library and wheel checks on every shared object)");
  public static final Parameter PLATFORM_TAG = Parameter.single("platformTag", "TAG", null,
      "e.g. manylinux_2_28_x86_64: the tag PLATFORM holds the libraries to, and the one pack writes; default:"
          + " verify, the wheel's file name, else this machine (linux_<arch>); pack, this machine");
  public static final Parameter FAIL_ON = Parameter.single("failOn", "LEVEL", Severity.DEFAULT_FAIL_ON,
      "error or warning: the lowest severity that fails");
  public static final Parameter SEVERITIES = Parameter.list("severities", "ID=LEVEL", null,
      "severity overrides, each ID=error|warning|info");
  public static final Parameter SUPPRESSIONS = Parameter.list("suppressions", "SUPPRESSION", null,
      "accepted findings, each 'ID[@file[:line]]: reason'; the reason is required and printed");
  public static final Parameter REPORT_DIRECTORY = Parameter.single("reportDirectory", "DIR", null,
      "where report.json, the JUnit XML and the SARIF file go; default: none are written (the goal: under target/)")
      .withOption("--report-dir");
  public static final Parameter OUTPUT_TIMESTAMP = Parameter.single("outputTimestamp", "TIME", null,
      "the time of every written entry, ISO-8601 or seconds since 1970; default: SOURCE_DATE_EPOCH, else"
          + " 1980-01-01 (the goal: project.build.outputTimestamp)");
  public static final Parameter NCCL_EP_MAJOR = Parameter.single("ncclEpMajor", "N", null,
      "the NCCL EP major TE was built against; default: NCCL_EP_MAJOR of the shipped nccl_ep.h");
  public static final Parameter FORBIDDEN_NEEDED = Parameter.list("forbiddenNeeded", "GLOB",
      CheckSettings.DEFAULT_FORBIDDEN_NEEDED_TEXT, "DT_NEEDED names the TE library must not have");
  public static final Parameter INCLUDE_SEARCH_PATH = Parameter.list("includeSearchPath", "FOLDER", null,
      "folders under the include root searched for a quoted include after the including file's own; default:"
          + " NCCL EP's JIT order nccl_ep, nccl_ep/device, the root");
  public static final Parameter EXTERNAL_HEADERS = Parameter.list("externalHeaders", "HEADER", null,
      "more headers that come from outside the wheel, beside NCCL's and CUDA's");
  public static final Parameter ALLOWED_NEEDED = Parameter.list("allowedNeeded", "GLOB", null,
      "more DT_NEEDED patterns that may stay unshipped (DEPS-RESOLVE)");
  public static final Parameter CUDA_ARCHITECTURES = Parameter.list("cudaArchitectures", "ARCH", null,
      "the GPU architectures the release supports, e.g. 80,90,100,120 (90a, 100f): GPU-ARCHS holds every library"
          + " to them");
  public static final Parameter CUDA_MAJOR = Parameter.single("cudaMajor", "N", null,
      "the CUDA major of the build: pack names the distribution <name>_cu<N>; CUDA-VARIANT holds the libraries'"
          + " CUDA SONAMEs to it (verify of a .whl without it: the name's _cu<N>)");
  public static final Parameter FLOOR_LIBRARIES = Parameter.list("floorLibraries", "PATH", null,
      "the oldest supported external libraries (shared libraries, folders of them or pip wheels) SYMBOL-FLOOR"
          + " holds every shipped library to");
  public static final Parameter MAX_WHEEL_SIZE = Parameter.single("maxWheelSize", "SIZE", null,
      "the largest .whl WHEEL-SIZE passes, e.g. 500MiB (KiB, MiB, GiB or bytes); default: PyPI's 100 MiB, a"
          + " warning above it");
  public static final Parameter MAX_GROWTH_PERCENT = Parameter.single("maxGrowthPercent", "PERCENT",
      "" + DiffRequest.DEFAULT_MAX_GROWTH_PERCENT, "the largest growth of wheel_lib's total size that passes, in"
          + " percent of the baseline's");
  public static final Parameter STAGING_DIRECTORY = Parameter.single("stagingDirectory", "DIR", null,
      "the tree to pack: the Python package files and transformer_engine/wheel_lib; required (the goal:"
          + " target/wheel)");
  public static final Parameter DISTRIBUTION = Parameter.single("distribution", "NAME",
      PackRequest.DEFAULT_DISTRIBUTION, "the distribution name");
  public static final Parameter VERSION = Parameter.single("version", "VERSION", null,
      "the wheel's version (PEP 440), e.g. 2.9.0; required");
  public static final Parameter PYTHON_TAG = Parameter.single("pythonTag", "TAG", PackRequest.DEFAULT_PYTHON_TAG,
      "the wheel's Python tag");
  public static final Parameter ABI_TAG = Parameter.single("abiTag", "TAG", PackRequest.DEFAULT_ABI_TAG,
      "the wheel's ABI tag");
  public static final Parameter METADATA_FILE = Parameter.single("metadataFile", "FILE", null,
      "a METADATA file to use (its Name renamed for cudaMajor); default: generated from the fields below");
  public static final Parameter SUMMARY = Parameter.single("summary", "TEXT", null, "METADATA's Summary");
  public static final Parameter REQUIRES_PYTHON = Parameter.single("requiresPython", "SPEC", null,
      "METADATA's Requires-Python");
  public static final Parameter REQUIRES_DIST = Parameter.list("requiresDist", "REQUIREMENT", null,
      "METADATA's Requires-Dist lines");
  public static final Parameter LICENSE = Parameter.single("license", "TEXT", null, "METADATA's License");
  public static final Parameter HOME_PAGE = Parameter.single("homePage", "URL", null, "METADATA's Home-page");
  public static final Parameter COMPRESSION_LEVEL = Parameter.single("compressionLevel", "0-9",
      "" + PackRequest.DEFAULT_COMPRESSION_LEVEL, "deflate level, 0 (stored) to 9");
  public static final Parameter WHEEL_DIRECTORY = Parameter.single("wheelDirectory", "DIR", null,
      "where the .whl goes; default: the current folder (the goal: target)");
  public static final Parameter DECLARE_FLOORS = Parameter.single("declareFloors", "true|false", "false",
      "add Requires-Dist: <distribution>>=<version> after requiresDist for each floor wheel of floorLibraries on"
          + " which every shipped library binds (SYMBOL-FLOOR), for the wheel's CUDA variant");
  public static final Parameter FLOOR_EXTRA = Parameter.single("floorExtra", "NAME", null,
      "the extra declareFloors's lines go under (Provides-Extra: NAME; extra == \"NAME\"); default: none, always"
          + " required");
  public static final Parameter VERIFY = Parameter.single("verify", "true|false", "true",
      "verify the written wheel with every check; one that fails is kept as <file>.whl.rejected");

  public static final Parameter RELEASE_DIRECTORY = Parameter.single("releaseDirectory", "DIR", null,
      "the release's folder: every .whl in it is one wheel of the release; required (the command: its operands,"
          + " a folder or the wheels)");
  public static final Parameter EXPECT_CUDA_MAJORS = Parameter.list("expectCudaMajors", "N", null,
      "the CUDA variants every platform must have a wheel of, e.g. 12,13; default: the variants present");
  public static final Parameter EXPECT_PLATFORMS = Parameter.list("expectPlatforms", "PLATFORM", null,
      "the architectures (x86_64, aarch64) or platform tags every variant must have a wheel of; default: those"
          + " present");

  public static final Parameter PYTHON = Parameter.single("python", "PATH", null,
      "the Python interpreter the job runs (e.g. .venv/bin/python): asked once, with a fixed query, where it imports"
          + " from; nothing else of the environment runs");
  public static final Parameter SITE_PACKAGES = Parameter.repeated("sitePackages", "DIR",
      "site-packages folders in import order, instead of --python (the first is sysconfig's purelib)");
  public static final Parameter ENV = Parameter.repeated("env", "KEY=VALUE",
      "a variable of the job that decides loading (LD_LIBRARY_PATH, CUDA_HOME, ...), over the current ones");

  /** te-wheel doctor (a command only: it judges a Python environment, not a build). */
  public static final List<Parameter> DOCTOR = List.of(PYTHON, SITE_PACKAGES, ENV);

  /** What the checks are configured with (CheckSettings), read alike by verify and pack. */
  public static final List<Parameter> CHECKS = List.of(NCCL_EP_MAJOR, FORBIDDEN_NEEDED, INCLUDE_SEARCH_PATH,
      EXTERNAL_HEADERS, ALLOWED_NEEDED, CUDA_ARCHITECTURES, CUDA_MAJOR, FLOOR_LIBRARIES, MAX_WHEEL_SIZE);

  /** How a gate judges and where it writes its reports. */
  public static final List<Parameter> GATE = List.of(FAIL_ON, SEVERITIES, SUPPRESSIONS, REPORT_DIRECTORY);

  /** te:verify-wheel-lib and te-wheel verify. */
  public static final List<Parameter> VERIFY_WHEEL_LIB = concat(List.of(WHEEL_LIB_PATH, LAYOUT, PLATFORM_TAG),
      GATE, CHECKS);

  /**
   * te:verify-release and te-wheel verify-release: verify's parameters but the platform and CUDA variant, which
   * each wheel's name says.
   */
  public static final List<Parameter> VERIFY_RELEASE = concat(List.of(RELEASE_DIRECTORY, EXPECT_CUDA_MAJORS,
      EXPECT_PLATFORMS, WHEEL_LIB_PATH, LAYOUT), GATE, CHECKS.stream().filter(p -> p != CUDA_MAJOR).toList());

  /** te:diff-wheel and te-wheel diff. */
  public static final List<Parameter> DIFF_WHEEL = concat(List.of(WHEEL_LIB_PATH, LAYOUT, MAX_GROWTH_PERCENT),
      GATE);

  /** te:pack-wheel and te-wheel pack: what to write, then how to verify it (as verify does). */
  public static final List<Parameter> PACK_WHEEL = concat(List.of(STAGING_DIRECTORY, DISTRIBUTION, VERSION,
      PYTHON_TAG, ABI_TAG, PLATFORM_TAG, METADATA_FILE, SUMMARY, REQUIRES_PYTHON, REQUIRES_DIST, DECLARE_FLOORS,
      FLOOR_EXTRA, LICENSE, HOME_PAGE, COMPRESSION_LEVEL, WHEEL_DIRECTORY, OUTPUT_TIMESTAMP, VERIFY, WHEEL_LIB_PATH, LAYOUT), GATE, CHECKS);

  /** Every parameter above, once. */
  public static final List<Parameter> ALL = concat(PACK_WHEEL, List.of(MAX_GROWTH_PERCENT), VERIFY_RELEASE);

  /** The parameter of that goal parameter name, if any. */
  public static Optional<Parameter> named(String name) {
    return ALL.stream().filter(p -> p.name().equals(name)).findFirst();
  }

  @SafeVarargs
  private static List<Parameter> concat(List<Parameter>... parts) {
    List<Parameter> all = new ArrayList<>();
    for (List<Parameter> part : parts) {
      part.stream().filter(p -> !all.contains(p)).forEach(all::add);
    }
    return List.copyOf(all);
  }
}
