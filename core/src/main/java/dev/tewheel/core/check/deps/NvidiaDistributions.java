package dev.tewheel.core.check.deps;

import dev.tewheel.core.requirement.Requirement;
import java.util.List;
import java.util.Optional;

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

  private static final List<Distribution> ALL = List.of(
      new Distribution("nvidia-cuda-runtime-cu12", 12, List.of("libcudart.so.12"), "nvidia/cuda_runtime/lib"),
      new Distribution("nvidia-cublas-cu12", 12, List.of("libcublas.so.12", "libcublasLt.so.12"),
          "nvidia/cublas/lib"),
      new Distribution("nvidia-cuda-nvrtc-cu12", 12, List.of("libnvrtc.so.12"), "nvidia/cuda_nvrtc/lib"),
      new Distribution("nvidia-curand-cu12", 12, List.of("libcurand.so.10"), "nvidia/curand/lib"),
      new Distribution("nvidia-cufft-cu12", 12, List.of("libcufft.so.11"), "nvidia/cufft/lib"),
      new Distribution("nvidia-cusolver-cu12", 12, List.of("libcusolver.so.11"), "nvidia/cusolver/lib"),
      new Distribution("nvidia-cusparse-cu12", 12, List.of("libcusparse.so.12"), "nvidia/cusparse/lib"),
      new Distribution("nvidia-nvjitlink-cu12", 12, List.of("libnvJitLink.so.12"), "nvidia/nvjitlink/lib"),
      new Distribution("nvidia-cuda-cupti-cu12", 12, List.of("libcupti.so.12"), "nvidia/cuda_cupti/lib"),
      new Distribution("nvidia-cudnn-cu12", 12, List.of("libcudnn.so.9"), "nvidia/cudnn/lib"),
      new Distribution("nvidia-nccl-cu12", 12, List.of("libnccl.so.2"), "nvidia/nccl/lib"),
      new Distribution("nvidia-cuda-runtime", 13, List.of("libcudart.so.13"), "nvidia/cu13/lib"),
      new Distribution("nvidia-cublas", 13, List.of("libcublas.so.13", "libcublasLt.so.13"), "nvidia/cu13/lib"),
      new Distribution("nvidia-cuda-nvrtc", 13, List.of("libnvrtc.so.13"), "nvidia/cu13/lib"),
      new Distribution("nvidia-curand", 13, List.of("libcurand.so.10"), "nvidia/cu13/lib"),
      new Distribution("nvidia-cufft", 13, List.of("libcufft.so.12"), "nvidia/cu13/lib"),
      new Distribution("nvidia-cusolver", 13, List.of("libcusolver.so.12"), "nvidia/cu13/lib"),
      new Distribution("nvidia-cusparse", 13, List.of("libcusparse.so.12"), "nvidia/cu13/lib"),
      new Distribution("nvidia-nvjitlink", 13, List.of("libnvJitLink.so.13"), "nvidia/cu13/lib"),
      new Distribution("nvidia-cuda-cupti", 13, List.of("libcupti.so.13"), "nvidia/cu13/lib"),
      new Distribution("nvidia-cudnn-cu13", 13, List.of("libcudnn.so.9"), "nvidia/cudnn/lib"),
      new Distribution("nvidia-nccl-cu13", 13, List.of("libnccl.so.2"), "nvidia/nccl/lib"));

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
