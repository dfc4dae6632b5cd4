package dev.tewheel.runtime.report;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where one library of TE's native world comes from (cudart, cuBLASLt, cuBLAS, cuDNN, NVRTC, cuRAND, NCCL), found
 * with TE's search order (docs/runtime.md, "TE's native world"). te-runtime makes it; an application reads it.
 *
 * @param name the library's short name as TE's Python names it ({@code cudart}, {@code cublasLt}, {@code cublas},
 *     {@code cudnn}, {@code nvrtc}, {@code curand}, {@code nccl}).
 * @param file the file te-runtime loads (or the copy already mapped); empty when none was found or it is skipped.
 * @param companions files loaded with it, after it: cuDNN's sub-libraries ({@code libcudnn_graph.so.9}, ...).
 * @param soname the file's DT_SONAME, read from the ELF file.
 * @param version the version, from the library itself ({@code cudaRuntimeGetVersion}, {@code cudnnGetVersion}, ...)
 *     when it is mapped in this process, else from its SONAME or file name.
 * @param versionSource where {@link #version()} came from: the function's name, {@code SONAME} or {@code file name}.
 * @param foundBy which step of the search found it (or skipped it, or found nothing).
 * @param foundDetail the step in words, e.g. {@code environment CUDA_HOME=/usr/local/cuda-12.8}.
 * @param mapped every file mapped in this process (/proc/self/maps) whose SONAME is this library's.
 * @param problem why it cannot be used, with the fix (which pip wheel to install); empty when it can.
 */
public record NativeLibrary(String name, Optional<Path> file, List<Path> companions, Optional<String> soname,
    Optional<String> version, String versionSource, FoundBy foundBy, String foundDetail, List<Path> mapped,
    Optional<String> problem) {
  public NativeLibrary {
    companions = List.copyOf(companions);
    mapped = List.copyOf(mapped);
  }

  /** Whether a file was found (or it was skipped on purpose) and nothing stands in its way. */
  public boolean ok() {
    return problem().isEmpty();
  }

  /** Whether the library is skipped by {@code te.native.<name>.skip}. */
  public boolean skipped() {
    return foundBy() == FoundBy.SKIPPED;
  }

  /**
   * The step of TE's search that settled a library; {@link #toString()} is the reports' word for it. Each constant is
   * the loader model's {@link dev.tewheel.loader.te.TeFoundBy} of the same name, which says what it means.
   */
  public enum FoundBy {
    ALREADY_LOADED, SKIPPED, OVERRIDE, SYSTEM, DLOPEN, PIP_WHEEL, NOT_FOUND;

    @Override
    public String toString() {
      return dev.tewheel.loader.te.TeFoundBy.valueOf(name()).toString();
    }
  }
}
