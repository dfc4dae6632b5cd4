package dev.tewheel.loader.te;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One library TE's {@code transformer_engine/common/__init__.py} loads before its own, with the names its search
 * uses.
 *
 * @param name TE's short name ({@code cudart}); also the {@code <NAME>_HOME}, {@code TE_NATIVE_<NAME>_PATH} stem
 * @param base the file name stem ({@code libcudart})
 * @param pipPackage the folder under {@code nvidia/} of its pip wheel
 * @param extraPipFolders real wheel folders TE's four patterns miss ({@code nvidia/cuda_runtime/lib} of
 *     nvidia-cuda-runtime-cu12), relative to site-packages
 * @param wheel12 the pip wheel for CUDA 12
 * @param wheel13 the pip wheel for CUDA 13
 */
public record TeLibrary(String name, String base, String pipPackage, List<String> extraPipFolders, String wheel12,
    String wheel13) {
  /** In load order: cudart, cuBLASLt before cuBLAS, cuDNN (and its sub-libraries), NVRTC, cuRAND, NCCL. */
  public static final List<TeLibrary> ALL = List.of(
      new TeLibrary("cudart", "libcudart", "cudart", List.of("nvidia/cuda_runtime/lib"), "nvidia-cuda-runtime-cu12",
          "nvidia-cuda-runtime"),
      new TeLibrary("cublasLt", "libcublasLt", "cublas", List.of(), "nvidia-cublas-cu12", "nvidia-cublas"),
      new TeLibrary("cublas", "libcublas", "cublas", List.of(), "nvidia-cublas-cu12", "nvidia-cublas"),
      new TeLibrary("cudnn", "libcudnn", "cudnn", List.of(), "nvidia-cudnn-cu12", "nvidia-cudnn-cu13"),
      new TeLibrary("nvrtc", "libnvrtc", "nvrtc", List.of(), "nvidia-cuda-nvrtc-cu12", "nvidia-cuda-nvrtc"),
      new TeLibrary("curand", "libcurand", "curand", List.of(), "nvidia-curand-cu12", "nvidia-curand"),
      new TeLibrary("nccl", "libnccl", "nccl", List.of(), "nvidia-nccl-cu12", "nvidia-nccl-cu13"));

  /** cuDNN 9's sub-libraries, in an order where each one's DT_NEEDED siblings come first. */
  public static final List<String> CUDNN_PARTS = List.of("graph", "engines_runtime_compiled", "engines_precompiled",
      "heuristic", "ops", "cnn", "adv");

  /** Without a CUDA toolkit these must come from pip wheels (TE: cuBLAS, cudart, cuDNN; cuBLASLt is cuBLAS's). */
  static final List<String> PIP_WITHOUT_TOOLKIT = List.of("cudart", "cublasLt", "cublas", "cudnn");

  public TeLibrary {
    extraPipFolders = List.copyOf(extraPipFolders);
  }

  /** The library of TE's short name. */
  public static TeLibrary named(String name) {
    return ALL.stream().filter(e -> e.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("TE loads no library named " + name));
  }

  /** {@code <base>.so.<version>}: the versioned names of the library (a SONAME, a pip wheel's file). */
  public Pattern versioned() {
    return Pattern.compile(Pattern.quote(base) + "\\.so\\.(\\d+(?:\\.\\d+)*)");
  }

  /** Whether TE takes it from a pip wheel only when no CUDA toolkit is on the system. */
  public boolean pipWithoutToolkit() {
    return PIP_WITHOUT_TOOLKIT.contains(name);
  }

  /** The pip wheel to install for a TE build's CUDA major; both when it is unknown. */
  public String wheel(Optional<Integer> cuda) {
    if (cuda.isPresent() && cuda.get() == 12) {
      return wheel12;
    }
    if (cuda.isPresent() && cuda.get() >= 13) {
      return wheel13;
    }
    return wheel12 + " (CUDA 12) or " + wheel13 + " (CUDA 13)";
  }
}
