package dev.tewheel.core.check;

import dev.tewheel.elf.FatBinaryEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A GPU architecture a release declares it supports: {@code 90} (compute capability 9.0), or with nvcc's suffix
 * {@code 90a} / {@code 100f} when the release promises the architecture- or family-specific code.
 *
 * @param number the architecture number, e.g. 120
 * @param suffix "", "a" or "f"
 */
public record CudaArchitecture(int number, String suffix) {
  private static final Pattern FORM = Pattern.compile("(?:sm_|compute_)?(\\d{2,4})([af]?)");

  /** "80", "90a", "sm_100f", "compute_120". */
  public static CudaArchitecture parse(String text) {
    Matcher m = FORM.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("CUDA architecture '" + text + "' is not of the form 80, 90a or 100f (the"
          + " number of sm_XX, as in CMAKE_CUDA_ARCHITECTURES)");
    }
    return new CudaArchitecture(Integer.parseInt(m.group(1)), m.group(2));
  }

  /** Parses each entry; entries may also hold comma- or semicolon-separated lists. */
  public static List<CudaArchitecture> parseAll(List<String> entries) {
    List<CudaArchitecture> result = new ArrayList<>();
    for (String entry : entries == null ? List.<String>of() : entries) {
      for (String part : entry.split("[,;\\s]+")) {
        if (!part.isBlank()) {
          CudaArchitecture a = parse(part);
          if (!result.contains(a)) {
            result.add(a);
          }
        }
      }
    }
    return result;
  }

  int major() {
    return number / 10;
  }

  /**
   * Whether this SASS entry runs natively on the declared architecture, by the CUDA Programming Guide's binary
   * compatibility: a cubin for X.Y runs on X.Z with Z >= Y; an {@code a} cubin only on its own X.Y; an {@code f}
   * cubin on X.Z of its family with Z >= Y.
   */
  public boolean runs(FatBinaryEntry sass) {
    int arch = sass.arch();
    return switch (suffix) {
      case "a" -> arch == number && sass.variant() == FatBinaryEntry.Variant.ARCH_SPECIFIC;
      case "f" -> arch == number && sass.variant() != FatBinaryEntry.Variant.ARCH_SPECIFIC;
      default -> switch (sass.variant()) {
        case ARCH_SPECIFIC -> arch == number;
        case FAMILY_SPECIFIC, NONE -> arch / 10 == major() && arch <= number;
      };
    };
  }

  /**
   * Whether the driver can JIT this PTX for the declared architecture: plain PTX for any architecture at or above
   * it, {@code a} PTX only for its own, {@code f} PTX within its family at or above it.
   */
  public boolean jits(FatBinaryEntry ptx) {
    int arch = ptx.arch();
    return switch (ptx.variant()) {
      case ARCH_SPECIFIC -> arch == number;
      case FAMILY_SPECIFIC -> arch / 10 == major() && arch <= number && !suffix.equals("a");
      case NONE -> arch <= number && suffix.isEmpty();
    };
  }

  @Override
  public String toString() {
    return number + suffix;
  }
}
