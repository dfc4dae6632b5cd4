package dev.tewheel.runtime.report;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * TE's native world as te-runtime finds it: every library TE's Python loads before {@code libtransformer_engine.so},
 * in load order, with its provenance; the site-packages searched for NVIDIA's pip wheels; and the warnings about
 * what is mapped. Reading it loads nothing. te-runtime makes it; an application reads it.
 *
 * @param libraries cudart, cuBLASLt, cuBLAS, cuDNN, NVRTC, cuRAND, NCCL: the order te-runtime loads them in.
 * @param sitePackages the site-packages folder searched for {@code nvidia/...} wheels, if any.
 * @param sitePackagesSource how {@link #sitePackages()} was chosen: {@code installed TE wheel}, {@code system property
 *     te.sitePackages}, {@code environment VIRTUAL_ENV}, or {@code none}.
 * @param cudaToolkit whether a CUDA toolkit is present by TE's rule (NVRTC or cuRAND found on the system); without
 *     one, cuBLAS, cudart and cuDNN must come from pip wheels.
 * @param cudaVariant the CUDA major the TE build is for ({@code 12} for {@code transformer_engine_cu12}), if known.
 * @param cudaVariantSource where {@link #cudaVariant()} came from (the dist-info folder, or the TE library's DT_NEEDED
 *     libcudart).
 * @param warnings things that work but may surprise: two files with one SONAME mapped, a cu12 wheel on a CUDA 13
 *     cudart, ...
 * @param problems what stops loading TE's native libraries, each with its fix.
 * @param transformerEngine whether every symbol libtransformer_engine.so imports would bind once these libraries are
 *     loaded, predicted without loading it; empty when there is no TE library to predict for.
 */
public record NativeWorld(List<NativeLibrary> libraries, Optional<Path> sitePackages, String sitePackagesSource,
    boolean cudaToolkit, Optional<Integer> cudaVariant, String cudaVariantSource, List<String> warnings,
    List<String> problems, Optional<LoadPrediction> transformerEngine) {
  public NativeWorld {
    libraries = List.copyOf(libraries);
    warnings = List.copyOf(warnings);
    problems = List.copyOf(problems);
  }

  /**
   * Whether every library was found (or skipped), nothing stands in the way of loading them, and the TE library (if
   * any) would load among them.
   */
  public boolean ok() {
    return problems().isEmpty() && transformerEngine().map(LoadPrediction::loads).orElse(true);
  }

  /** The library of that short name ({@code cudart}, {@code nccl}, ...). */
  public Optional<NativeLibrary> library(String name) {
    return libraries().stream().filter(l -> l.name().equals(name)).findFirst();
  }
}
