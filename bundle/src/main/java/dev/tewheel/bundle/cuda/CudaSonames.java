package dev.tewheel.bundle.cuda;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SONAME major each CUDA toolkit library has in each CUDA major, the one table that CUDA-VARIANT and te-runtime's
 * choice among class-path bundles read (docs/checks.md says where each figure comes from); which pip distribution
 * installs each library is core's NvidiaDistributions. cuRAND ({@code libcurand.so.10}) and cuSPARSE
 * ({@code libcusparse.so.12}) keep one major across CUDA 12 and 13, so their names say nothing of the variant and
 * are not listed.
 */
public final class CudaSonames {
  /** Library stem (the name before {@code .so}) to its SONAME major, per CUDA major. */
  private static final Map<Integer, Map<String, Integer>> MAJORS = Map.of(
      12, Map.of("libcudart", 12, "libcublas", 12, "libcublasLt", 12, "libnvrtc", 12, "libnvJitLink", 12,
          "libcufft", 11, "libcusolver", 11, "libcupti", 12),
      13, Map.of("libcudart", 13, "libcublas", 13, "libcublasLt", 13, "libnvrtc", 13, "libnvJitLink", 13,
          "libcufft", 12, "libcusolver", 12, "libcupti", 13));

  private static final Pattern NAME = Pattern.compile("(lib[A-Za-z]+)\\.so\\.(\\d+)(?:\\.\\d+)*");

  private CudaSonames() {}

  /** A DT_NEEDED name of a listed CUDA library: its stem and SONAME major, e.g. libcudart and 13. */
  public record CudaNeeded(String name, String stem, int sonameMajor) {
    /**
     * The CUDA major whose toolkit ships this SONAME; for a library whose SONAME major is the CUDA major in every
     * listed CUDA major (libcudart, libcublas, ...), also a later one ({@code libcudart.so.14} is CUDA 14); empty
     * otherwise.
     */
    public OptionalInt cudaMajor() {
      for (Map.Entry<Integer, Map<String, Integer>> cuda : MAJORS.entrySet()) {
        Integer major = cuda.getValue().get(stem);
        if (major != null && major == sonameMajor) {
          return OptionalInt.of(cuda.getKey());
        }
      }
      boolean tracks = MAJORS.entrySet().stream()
          .allMatch(cuda -> cuda.getKey().equals(cuda.getValue().get(stem)));
      return tracks && sonameMajor > 0 ? OptionalInt.of(sonameMajor) : OptionalInt.empty();
    }
  }

  /** The name read as a listed CUDA library, or empty for any other library (cuDNN, NCCL, libc, ...). */
  public static Optional<CudaNeeded> parse(String needed) {
    Matcher m = NAME.matcher(needed);
    if (!m.matches() || !isListed(m.group(1))) {
      return Optional.empty();
    }
    try {
      return Optional.of(new CudaNeeded(needed, m.group(1), Integer.parseInt(m.group(2))));
    } catch (NumberFormatException e) {
      return Optional.empty(); // a major too long for an int is no CUDA SONAME
    }
  }

  /** The SONAME the library has in that CUDA major, e.g. libcufft.so.11 for 12; empty when the table lacks it. */
  public static Optional<String> soname(String stem, int cudaMajor) {
    Map<String, Integer> majors = MAJORS.get(cudaMajor);
    return majors == null || !majors.containsKey(stem) ? Optional.empty()
        : Optional.of(stem + ".so." + majors.get(stem));
  }

  /** Whether the table knows this CUDA major. */
  public static boolean knows(int cudaMajor) {
    return MAJORS.containsKey(cudaMajor);
  }

  /** The CUDA majors the table knows, ascending. */
  public static List<Integer> cudaMajors() {
    return List.copyOf(new TreeSet<>(MAJORS.keySet()));
  }

  private static boolean isListed(String stem) {
    return MAJORS.values().stream().anyMatch(m -> m.containsKey(stem));
  }
}
