package dev.tewheel.runtime;

import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Fake CUDA toolkits and site-packages for te-runtime's discovery: tiny gcc libraries with NVIDIA's real file names,
 * SONAMEs and version functions ({@code int cudaRuntimeGetVersion(int*)}, {@code size_t cudnnGetVersion(void)},
 * {@code size_t cublasLtGetVersion(void)}, {@code int cublasGetProperty(int, int*)}, {@code int nvrtcVersion(int*,
 * int*)}, {@code int curandGetVersion(int*)}), laid out as NVIDIA's pip wheels and toolkits lay them out. NCCL is the
 * stand-in NCCL. Each library is compiled once per source into target/fake-world/ and copied; gcc must be
 * installed (a test fails naming it otherwise).
 */
final class FakeWorld {
  static final Path CACHE = Path.of(System.getProperty("te.fakeWorld", "target/fake-world")).toAbsolutePath();
  static final List<String> CUDNN_PARTS = List.of("adv", "cnn", "engines_precompiled",
      "engines_runtime_compiled", "graph", "heuristic", "ops");

  private FakeWorld() {}

  /** CUDA 12 as pip installs it: nvidia/cuda_runtime, nvidia/cublas, nvidia/cudnn, nvidia/cuda_nvrtc, ... */
  static Path pipCu12(Path site) throws IOException {
    cudart(site.resolve("nvidia/cuda_runtime/lib"), 12, 12080);
    cublas(site.resolve("nvidia/cublas/lib"), 12, 8, 4);
    cudnn(site.resolve("nvidia/cudnn/lib"), 91002);
    nvrtc(site.resolve("nvidia/cuda_nvrtc/lib"), 12, 8);
    curand(site.resolve("nvidia/curand/lib"), 10305);
    pipNccl(site);
    return site;
  }

  /** CUDA 13 as pip installs it: one nvidia/cu13/lib for the toolkit's libraries; cuDNN and NCCL apart. */
  static Path pipCu13(Path site) throws IOException {
    Path lib = site.resolve("nvidia/cu13/lib");
    cudart(lib, 13, 13000);
    cublas(lib, 13, 1, 0);
    nvrtc(lib, 13, 0);
    curand(lib, 10400);
    cudnn(site.resolve("nvidia/cudnn/lib"), 91300);
    pipNccl(site);
    return site;
  }

  /** nvidia/nccl/lib/libnccl.so.2 (the stand-in) and nvidia/nccl/include (its headers). */
  static void pipNccl(Path site) throws IOException {
    Path lib = Files.createDirectories(site.resolve("nvidia/nccl/lib"));
    Files.copy(Bundles.NCCL, lib.resolve("libnccl.so.2"), StandardCopyOption.REPLACE_EXISTING);
    Bundles.copyTree(StandIns.ncclLibDir().getParent().resolve("include"), site.resolve("nvidia/nccl/include"));
  }

  /** A TE wheel installed in {@code site}: transformer_engine/wheel_lib and its dist-info for a CUDA major. */
  static Path teWheel(Path site, int cudaMajor) throws IOException {
    Path wheelLib = Bundles.defaultLayout(site.resolve("transformer_engine/wheel_lib"));
    Files.createDirectories(site.resolve("transformer_engine_cu" + cudaMajor + "-2.9.0.dist-info"));
    return wheelLib;
  }

  /**
   * A toolkit at {@code root}: lib64/ with cudart, cuBLAS(Lt), NVRTC, cuRAND and cuDNN, a stub libcublas in
   * lib64/stubs/ that must be skipped, include/ with cuda_runtime.h and cccl/, and, if asked, bin/nvcc (a script that
   * prints nvcc's version banner).
   */
  static Path toolkit(Path root, int major, boolean withNvcc) throws IOException {
    Path lib = root.resolve("lib64");
    cudart(lib, major, major * 1000 + 60);
    cublas(lib, major, 6, 1);
    nvrtc(lib, major, 6);
    curand(lib, 10307);
    cudnn(lib, 90700);
    Path stubs = Files.createDirectories(lib.resolve("stubs"));
    library(stubs.resolve("libcublas.so"), "libcublas.so." + major, "int cublasGetProperty(int t, int* v)"
        + " { *v = 99; return 0; }");
    Files.createDirectories(root.resolve("include/cccl/cuda/std"));
    Files.writeString(root.resolve("include/cuda_runtime.h"), "#pragma once\n");
    Files.writeString(root.resolve("include/cuda.h"), "#pragma once\n#define CUDA_VERSION " + major + "060\n");
    if (withNvcc) {
      // As a runfile toolkit has it; te-runtime reads nvcc's release here and never runs nvcc, which says so.
      Files.writeString(root.resolve("version.json"), "{\n   \"cuda\" : {\n      \"name\" : \"CUDA SDK\",\n"
          + "      \"version\" : \"" + major + ".6.3\"\n   },\n   \"cuda_nvcc\" : {\n      \"name\" : \"CUDA NVCC\",\n"
          + "      \"version\" : \"" + major + ".6.77\"\n   }\n}\n");
      Path nvcc = Files.createDirectories(root.resolve("bin")).resolve("nvcc");
      Files.writeString(nvcc, "#!/bin/sh\necho 'te-runtime ran nvcc, which a report must never do' >&2\nexit 1\n");
      nvcc.toFile().setExecutable(true);
    }
    return root;
  }

  static Path cudart(Path folder, int major, int code) throws IOException {
    return library(folder.resolve("libcudart.so." + major), "libcudart.so." + major,
        "int cudaRuntimeGetVersion(int* v) { *v = " + code + "; return 0; }");
  }

  /** libcublasLt.so.N, and libcublas.so.N, which NEEDS it (as the real one does). */
  static void cublas(Path folder, int major, int minor, int patch) throws IOException {
    Path lt = library(folder.resolve("libcublasLt.so." + major), "libcublasLt.so." + major,
        "#include <stddef.h>\nsize_t cublasLtGetVersion(void) { return " + (major * 10000 + minor * 100 + patch)
            + "; }");
    library(folder.resolve("libcublas.so." + major), "libcublas.so." + major,
        "#include <stddef.h>\nsize_t cublasLtGetVersion(void);\nint cublasGetProperty(int t, int* v) {"
            + " if (!cublasLtGetVersion()) return 1; *v = t == 0 ? " + major + " : t == 1 ? " + minor + " : " + patch
            + "; return 0; }", "-L" + lt.getParent(), "-l:" + lt.getFileName());
  }

  /** libcudnn.so.9 and its seven sub-libraries; libcudnn_graph.so.9 is the one the others build on. */
  static void cudnn(Path folder, int code) throws IOException {
    library(folder.resolve("libcudnn.so.9"), "libcudnn.so.9",
        "#include <stddef.h>\nsize_t cudnnGetVersion(void) { return " + code + "; }");
    for (String part : CUDNN_PARTS) {
      library(folder.resolve("libcudnn_" + part + ".so.9"), "libcudnn_" + part + ".so.9",
          "int cudnn_" + part + "_stand_in(void) { return " + code + "; }");
    }
  }

  static Path nvrtc(Path folder, int major, int minor) throws IOException {
    return library(folder.resolve("libnvrtc.so." + major), "libnvrtc.so." + major,
        "int nvrtcVersion(int* a, int* b) { *a = " + major + "; *b = " + minor + "; return 0; }");
  }

  static Path curand(Path folder, int code) throws IOException {
    return library(folder.resolve("libcurand.so.10"), "libcurand.so.10",
        "int curandGetVersion(int* v) { *v = " + code + "; return 0; }");
  }

  /** Compiles (once per source, SONAME and link arguments) and copies a shared library to {@code target}. */
  static Path library(Path target, String soname, String source, String... linkArgs) throws IOException {
    String key = sha256(soname + "\n" + source + "\n" + String.join(" ", linkArgs));
    Path built = CACHE.resolve(key).resolve(soname);
    if (!Files.isRegularFile(built)) {
      Path folder = Files.createDirectories(built.getParent());
      Path c = folder.resolve("lib.c");
      Files.writeString(c, source + "\n", StandardCharsets.UTF_8);
      List<String> command = new ArrayList<>(List.of("gcc", "-shared", "-fPIC", "-Wl,-soname," + soname, "-o",
          built + ".tmp", c.toString()));
      command.addAll(List.of(linkArgs));
      run(command);
      Files.move(Path.of(built + ".tmp"), built, StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    }
    Files.createDirectories(target.getParent());
    Files.copy(built, target, StandardCopyOption.REPLACE_EXISTING);
    return target;
  }

  private static void run(List<String> command) throws IOException {
    Process process;
    try {
      process = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new AssertionError("the fake CUDA libraries need gcc (apt-get install gcc): " + e.getMessage(), e);
    }
    try {
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new AssertionError(String.join(" ", command) + " failed:\n" + out);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  static List<String> lines(Path file) throws IOException {
    try (Stream<String> lines = Files.lines(file)) {
      return lines.toList();
    }
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(text.getBytes(StandardCharsets.UTF_8))).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
