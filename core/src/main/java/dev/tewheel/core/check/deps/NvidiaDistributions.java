package dev.tewheel.core.check.deps;

import dev.tewheel.core.requirement.Requirement;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Which of NVIDIA's pip distributions installs which library, per CUDA major: the one table DEPS-DECLARED and pack's
 * declareFloors read (docs/checks.md cites each row's source). CUDA 12's are {@code nvidia-<component>-cu12}, each
 * in {@code nvidia/<component>/lib}; CUDA 13 renamed the toolkit's components (no suffix, all in
 * {@code nvidia/cu13/lib}), while cuDNN and NCCL keep a {@code -cu13} suffix and their own folders. A new fact (a
 * GPU machine's {@code pip show -f}) is a row edited here.
 */
public final class NvidiaDistributions {
  /**
   * One distribution.
   *
   * @param name its canonical name (PEP 503), e.g. nvidia-cublas-cu12
   * @param cudaMajor the CUDA major it belongs to
   * @param sonames the libraries it installs that a build links against
   * @param folder where under site-packages it installs them
   */
  public record Distribution(String name, int cudaMajor, List<String> sonames, String folder) {
    public Distribution {
      sonames = List.copyOf(sonames);
    }
  }

  /**
   * One component, both CUDA majors: its CUDA 12 distribution {@code nvidia-<name>-cu12} installs in
   * {@code nvidia/<name with _>/lib}; on CUDA 13 a toolkit component is {@code nvidia-<name>} in
   * {@code nvidia/cu13/lib}, while cuDNN and NCCL are {@code nvidia-<name>-cu13} in their CUDA 12 folder.
   *
   * @param name as in the distribution names, e.g. cuda-runtime
   * @param toolkit whether it is part of the CUDA toolkit (renamed on CUDA 13)
   * @param cuda12 the libraries of its CUDA 12 distribution
   * @param cuda13 the libraries of its CUDA 13 distribution
   */
  private record Component(String name, boolean toolkit, List<String> cuda12, List<String> cuda13) {
    Distribution forCuda12() {
      return new Distribution("nvidia-" + name + "-cu12", 12, cuda12, ownFolder());
    }

    Distribution forCuda13() {
      return toolkit ? new Distribution("nvidia-" + name, 13, cuda13, "nvidia/cu13/lib")
          : new Distribution("nvidia-" + name + "-cu13", 13, cuda13, ownFolder());
    }

    private String ownFolder() {
      return "nvidia/" + name.replace('-', '_') + "/lib";
    }
  }

  private static final List<Component> COMPONENTS = List.of(
      new Component("cuda-runtime", true, List.of("libcudart.so.12"), List.of("libcudart.so.13")),
      new Component("cublas", true, List.of("libcublas.so.12", "libcublasLt.so.12"),
          List.of("libcublas.so.13", "libcublasLt.so.13")),
      new Component("cuda-nvrtc", true, List.of("libnvrtc.so.12"), List.of("libnvrtc.so.13")),
      new Component("curand", true, List.of("libcurand.so.10"), List.of("libcurand.so.10")),
      new Component("cufft", true, List.of("libcufft.so.11"), List.of("libcufft.so.12")),
      new Component("cusolver", true, List.of("libcusolver.so.11"), List.of("libcusolver.so.12")),
      new Component("cusparse", true, List.of("libcusparse.so.12"), List.of("libcusparse.so.12")),
      new Component("nvjitlink", true, List.of("libnvJitLink.so.12"), List.of("libnvJitLink.so.13")),
      new Component("cuda-cupti", true, List.of("libcupti.so.12"), List.of("libcupti.so.13")),
      new Component("cudnn", false, List.of("libcudnn.so.9"), List.of("libcudnn.so.9")),
      new Component("nccl", false, List.of("libnccl.so.2"), List.of("libnccl.so.2")));

  /** Every CUDA 12 distribution, then every CUDA 13 one. */
  private static final List<Distribution> ALL = Stream.concat(COMPONENTS.stream().map(Component::forCuda12),
      COMPONENTS.stream().map(Component::forCuda13)).toList();

  private NvidiaDistributions() {}

  public static List<Distribution> all() {
    return ALL;
  }

  /** The distribution of that name (any spelling pip takes as the same name), if the table has it. */
  public static Optional<Distribution> named(String name) {
    String canonical = Requirement.canonicalize(name);
    return ALL.stream().filter(d -> d.name().equals(canonical)).findFirst();
  }

  /** The distribution of that CUDA major installing the library a DT_NEEDED names, if the table has one. */
  public static Optional<Distribution> providing(String soname, int cudaMajor) {
    return ALL.stream().filter(d -> d.cudaMajor() == cudaMajor && d.sonames().contains(soname)).findFirst();
  }

  /** The distributions of any CUDA major installing that library. */
  public static List<Distribution> providingAny(String soname) {
    return ALL.stream().filter(d -> d.sonames().contains(soname)).toList();
  }

  /** Whether the table knows this CUDA major. */
  public static boolean knows(int cudaMajor) {
    return ALL.stream().anyMatch(d -> d.cudaMajor() == cudaMajor);
  }
}
