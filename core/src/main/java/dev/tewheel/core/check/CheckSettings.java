package dev.tewheel.core.check;

import dev.tewheel.bundle.ncclep.NcclEpVersion;
import dev.tewheel.core.headers.IncludeSearchPath;
import dev.tewheel.core.policy.PlatformTag;
import dev.tewheel.core.policy.PlatformTags;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a run of checks is configured with.
 *
 * @param ncclEpMajor the NCCL EP major the build requires, or null to take NCCL_EP_MAJOR from the shipped header
 * @param forbiddenNeeded glob patterns ({@code *} and {@code ?}) of DT_NEEDED names the TE library must not have
 * @param includeSearchPath how the JIT resolves quoted includes, and which headers come from outside the wheel
 * @param platform the platform tags the libraries must fit, every one of them, or null to skip the platform checks
 * @param allowedNeeded more DT_NEEDED patterns that may stay unshipped, beside allowed-needed.txt
 * @param cudaArchitectures the GPU architectures the release supports (GPU-ARCHS), empty when none are declared
 * @param cudaMajor the wheel's CUDA variant (CUDA-VARIANT): the configured cudaMajor, else the {@code _cuNN} of the
 *     wheel's name; null when neither says
 * @param floorLibraries the floor libraries SYMBOL-FLOOR holds the shipped ones to: files, folders or .whl files
 *     holding the oldest supported versions of the external libraries; empty when none are given
 * @param maxWheelSize the largest .whl file, in bytes, that WHEEL-SIZE passes; null: PyPI's default limit, a warning
 */
public record CheckSettings(Integer ncclEpMajor, List<String> forbiddenNeeded, IncludeSearchPath includeSearchPath,
    PlatformTags platform, List<String> allowedNeeded, List<CudaArchitecture> cudaArchitectures, Integer cudaMajor,
    List<Path> floorLibraries, Long maxWheelSize) {
  /** NCCL EP is dlopened and the CUDA driver comes from the user's machine: neither may be a DT_NEEDED. */
  private static final Pattern SIZE = Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*(B|KiB|MiB|GiB)?\\s*");
  public static final String DEFAULT_FORBIDDEN_NEEDED_TEXT = "libnccl_ep*,libcuda.so*";

  /** {@link #DEFAULT_FORBIDDEN_NEEDED_TEXT} as a list. */
  public static final List<String> DEFAULT_FORBIDDEN_NEEDED = List.of(DEFAULT_FORBIDDEN_NEEDED_TEXT.split(","));

  public CheckSettings {
    forbiddenNeeded = List.copyOf(forbiddenNeeded);
    allowedNeeded = allowedNeeded == null ? List.of() : List.copyOf(allowedNeeded);
    cudaArchitectures = cudaArchitectures == null ? List.of() : List.copyOf(cudaArchitectures);
    floorLibraries = floorLibraries == null ? List.of() : List.copyOf(floorLibraries);
  }

  public CheckSettings(Integer ncclEpMajor, List<String> forbiddenNeeded, IncludeSearchPath includeSearchPath,
      PlatformTag platform, List<String> allowedNeeded, List<CudaArchitecture> cudaArchitectures, Integer cudaMajor) {
    this(ncclEpMajor, forbiddenNeeded, includeSearchPath, platform == null ? null : PlatformTags.of(platform),
        allowedNeeded, cudaArchitectures, cudaMajor, List.of(), null);
  }

  public CheckSettings(Integer ncclEpMajor, List<String> forbiddenNeeded, IncludeSearchPath includeSearchPath,
      PlatformTag platform, List<String> allowedNeeded, List<CudaArchitecture> cudaArchitectures) {
    this(ncclEpMajor, forbiddenNeeded, includeSearchPath, platform, allowedNeeded, cudaArchitectures, null);
  }

  public CheckSettings(Integer ncclEpMajor, List<String> forbiddenNeeded, IncludeSearchPath includeSearchPath,
      PlatformTag platform, List<String> allowedNeeded) {
    this(ncclEpMajor, forbiddenNeeded, includeSearchPath, platform, allowedNeeded, List.of());
  }

  public CheckSettings(Integer ncclEpMajor, List<String> forbiddenNeeded, IncludeSearchPath includeSearchPath) {
    this(ncclEpMajor, forbiddenNeeded, includeSearchPath, null, List.of());
  }

  /**
   * Settings from goal parameters; null or empty lists keep the defaults.
   *
   * @param searchFolders the JIT's include search folders after the including file's own
   * @param externalHeaders headers that come from outside the wheel, beside NCCL's and CUDA's
   */
  public static CheckSettings of(Integer ncclEpMajor, List<String> forbiddenNeeded, List<String> searchFolders,
      List<String> externalHeaders, List<String> allowedNeeded) {
    IncludeSearchPath search = IncludeSearchPath.ncclEpJit().withFolders(searchFolders)
        .withExternalHeaders(new java.util.HashSet<>(externalHeaders == null ? List.of() : externalHeaders));
    return new CheckSettings(ncclEpMajor,
        forbiddenNeeded == null || forbiddenNeeded.isEmpty() ? DEFAULT_FORBIDDEN_NEEDED : forbiddenNeeded, search, null,
        allowedNeeded);
  }

  /**
   * The NCCL EP major the build requires, the one rule assemble and the checks share: the configured
   * {@link #ncclEpMajor()}, else NCCL_EP_MAJOR of the shipped nccl_ep.h.
   *
   * @param headerText nccl_ep.h's text, asked only when no major is configured; empty when absent or unreadable
   */
  public OptionalInt requiredNcclEpMajor(Supplier<Optional<String>> headerText) {
    if (ncclEpMajor != null) {
      return OptionalInt.of(ncclEpMajor);
    }
    return headerText.get().map(NcclEpVersion::majorFromHeader).orElse(OptionalInt.empty());
  }

  public static CheckSettings defaults() {
    return new CheckSettings(null, DEFAULT_FORBIDDEN_NEEDED, IncludeSearchPath.ncclEpJit());
  }

  public CheckSettings withNcclEpMajor(Integer major) {
    return new CheckSettings(major, forbiddenNeeded, includeSearchPath, platform, allowedNeeded, cudaArchitectures,
        cudaMajor, floorLibraries, maxWheelSize);
  }

  /** The same settings holding the libraries to one tag. */
  public CheckSettings withPlatform(PlatformTag tag) {
    return withPlatform(PlatformTags.of(tag));
  }

  /** The same settings holding the libraries to every tag of {@code tags}. */
  public CheckSettings withPlatform(PlatformTags tags) {
    return new CheckSettings(ncclEpMajor, forbiddenNeeded, includeSearchPath, tags, allowedNeeded, cudaArchitectures,
        cudaMajor, floorLibraries, maxWheelSize);
  }

  /** The same settings with the GPU architectures the release declares, e.g. ["80", "90", "100", "120"]. */
  public CheckSettings withCudaArchitectures(List<String> declared) {
    return new CheckSettings(ncclEpMajor, forbiddenNeeded, includeSearchPath, platform, allowedNeeded,
        CudaArchitecture.parseAll(declared), cudaMajor, floorLibraries, maxWheelSize);
  }

  /** The same settings with the wheel's CUDA variant, e.g. 12 for a cu12 wheel; null: unknown. */
  public CheckSettings withCudaMajor(Integer major) {
    return new CheckSettings(ncclEpMajor, forbiddenNeeded, includeSearchPath, platform, allowedNeeded,
        cudaArchitectures, major, floorLibraries, maxWheelSize);
  }

  /** The same settings with the floor libraries SYMBOL-FLOOR reads (files, folders, .whl files). */
  public CheckSettings withFloorLibraries(List<Path> floors) {
    return new CheckSettings(ncclEpMajor, forbiddenNeeded, includeSearchPath, platform, allowedNeeded,
        cudaArchitectures, cudaMajor, floors, maxWheelSize);
  }

  /** The same settings with the wheel's size budget in bytes (WHEEL-SIZE); null: PyPI's default limit. */
  public CheckSettings withMaxWheelSize(Long bytes) {
    return new CheckSettings(ncclEpMajor, forbiddenNeeded, includeSearchPath, platform, allowedNeeded,
        cudaArchitectures, cudaMajor, floorLibraries, bytes);
  }

  /**
   * The largest CUDA major te-wheel writes into a distribution name ({@code _cu<N>}, at most four digits), so verify
   * reads back the variant pack wrote.
   */
  public static final int MAX_CUDA_MAJOR = 9999;

  /**
   * Parses cudaMajor as users write it: a decimal number from 1 to {@value #MAX_CUDA_MAJOR} without a leading zero.
   * Maven would read an Integer parameter with {@code Integer.decode}, taking {@code 012} for octal 10 and
   * {@code 0x0C} for 12; the goals take the text and read it here.
   *
   * @throws IllegalArgumentException saying what is expected
   */
  public static int parseCudaMajor(String text) {
    return major(text, 1, MAX_CUDA_MAJOR, "a CUDA major version such as 12 or 13");
  }

  /** Parses ncclEpMajor as {@link #parseCudaMajor} parses cudaMajor: NCCL EP's majors start at 0. */
  public static int parseNcclEpMajor(String text) {
    return major(text, 0, 999_999_999, "NCCL EP's major version (NCCL_EP_MAJOR), such as 0");
  }

  private static int major(String text, int min, int max, String what) {
    String t = text == null ? "" : text.trim();
    boolean decimal = t.matches("0|[1-9][0-9]{0,8}");
    if (!decimal || Integer.parseInt(t) < min || Integer.parseInt(t) > max) {
      throw new IllegalArgumentException("expected " + what + ": a decimal number from " + min + " to " + max
          + " without leading zeros" + (t.matches("0[0-9]+") ? " (Maven alone would read " + t + " as an octal number)"
          : ""));
    }
    return Integer.parseInt(t);
  }

  /**
   * Parses a size as users write it for maxWheelSize: a number with {@code KiB}, {@code MiB} or {@code GiB}
   * (powers of 1024), or plain bytes ({@code B} optional), e.g. {@code 500MiB}, {@code 1.5 GiB}, {@code 104857600}.
   *
   * @throws IllegalArgumentException naming the forms it accepts
   */
  public static long parseSize(String text) {
    Matcher m = SIZE.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("'" + text + "' is not a size: expected a number with KiB, MiB or GiB"
          + " (e.g. 500MiB, 1.5GiB), or a number of bytes");
    }
    int shift = m.group(2) == null ? 0 : switch (m.group(2)) {
      case "KiB" -> 10;
      case "MiB" -> 20;
      case "GiB" -> 30;
      default -> 0;
    };
    double bytes = Double.parseDouble(m.group(1)) * (1L << shift);
    if (bytes < 1 || bytes >= Long.MAX_VALUE) {
      throw new IllegalArgumentException("'" + text + "' is not a size between 1 byte and 8 EiB");
    }
    return (long) bytes;
  }
}
