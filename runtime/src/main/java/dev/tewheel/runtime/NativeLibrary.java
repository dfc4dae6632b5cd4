package dev.tewheel.runtime;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where one library of TE's native world comes from (cudart, cuBLASLt, cuBLAS, cuDNN, NVRTC, cuRAND, NCCL), found
 * with TE's search order (docs/runtime.md, "TE's native world"). te-runtime makes it; an application reads it.
 */
public sealed interface NativeLibrary permits NativeLibraryRecord {
  /**
   * The library's short name as TE's Python names it ({@code cudart}, {@code cublasLt}, {@code cublas},
   * {@code cudnn}, {@code nvrtc}, {@code curand}, {@code nccl}).
   */
  String name();

  /** The file te-runtime loads (or the copy already mapped); empty when none was found or it is skipped. */
  Optional<Path> file();

  /** Files loaded with it, after it: cuDNN's sub-libraries ({@code libcudnn_graph.so.9}, ...). */
  List<Path> companions();

  /** The file's DT_SONAME, read from the ELF file. */
  Optional<String> soname();

  /**
   * The version, from the library itself ({@code cudaRuntimeGetVersion}, {@code cudnnGetVersion}, ...) when it is
   * mapped in this process, else from its SONAME or file name.
   */
  Optional<String> version();

  /** Where {@link #version()} came from: the function's name, {@code SONAME} or {@code file name}. */
  String versionSource();

  /** Which step of the search found it (or skipped it, or found nothing). */
  FoundBy foundBy();

  /** The step in words, e.g. {@code environment CUDA_HOME=/usr/local/cuda-12.8}. */
  String foundDetail();

  /** Every file mapped in this process (/proc/self/maps) whose SONAME is this library's. */
  List<Path> mapped();

  /** Why it cannot be used, with the fix (which pip wheel to install); empty when it can. */
  Optional<String> problem();

  /** Whether a file was found (or it was skipped on purpose) and nothing stands in its way. */
  default boolean ok() {
    return problem().isEmpty();
  }

  /** Whether the library is skipped by {@code te.native.<name>.skip}. */
  default boolean skipped() {
    return foundBy() == FoundBy.SKIPPED;
  }

  /**
   * The step of TE's search that settled a library; {@link #toString()} is the reports' word for it. Each constant is
   * the loader model's {@link dev.tewheel.loader.te.TeFoundBy} of the same name, which says what it means.
   */
  enum FoundBy {
    ALREADY_LOADED, SKIPPED, OVERRIDE, SYSTEM, DLOPEN, PIP_WHEEL, NOT_FOUND;

    @Override
    public String toString() {
      return dev.tewheel.loader.te.TeFoundBy.valueOf(name()).toString();
    }
  }
}
