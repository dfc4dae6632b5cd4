package dev.tewheel.core.check;

import dev.tewheel.standins.Gcc;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Real ELF fixtures of CUDA-VARIANT, built by gcc at test time: stand-in CUDA libraries with the SONAMEs of the real
 * ones ({@code libcudart.so.13}, {@code libcublas.so.12}, ...), and a stand-in {@code libtransformer_engine.so}
 * ({@code -z now}) linked against some of them, so its DT_NEEDED are what the linker writes, not a patched table.
 */
public final class CudaStandIns {
  private CudaStandIns() {}

  /** A stand-in CUDA library in {@code folder} with SONAME {@code soname} (e.g. libcudart.so.13). */
  public static Path library(Path folder, String soname) throws Exception {
    Files.createDirectories(folder);
    String stem = soname.substring(0, soname.indexOf(".so"));
    Path source = folder.resolve(stem + ".c");
    Files.writeString(source, "int " + function(stem) + "(void) { return 0; }\n");
    Path library = folder.resolve(soname);
    Gcc.run("-shared", "-fPIC", "-Wl,-soname," + soname, "-o", library.toString(), source.toString());
    return library;
  }

  /**
   * A {@code libtransformer_engine.so} in {@code folder} that NEEDS each of {@code sonames}, each built as a stand-in
   * beside it and called from TE, so {@code --as-needed} keeps every one.
   */
  public static Path transformerEngine(Path folder, String... sonames) throws Exception {
    Files.createDirectories(folder);
    Path libs = Files.createDirectories(folder.resolve("cuda"));
    StringBuilder code = new StringBuilder();
    List<String> links = new ArrayList<>();
    StringBuilder calls = new StringBuilder();
    for (String soname : sonames) {
      library(libs, soname);
      String function = function(soname.substring(0, soname.indexOf(".so")));
      code.append("extern int ").append(function).append("(void);\n");
      calls.append(" + ").append(function).append("()");
      links.add("-l:" + soname);
    }
    return linkTe(folder, code + "int nvte_cuda_standin(void) { return 0" + calls + "; }\n", libs, links);
  }

  /**
   * A {@code libtransformer_engine.so} that calls the CUDA 13 runtime, linked against src/native's
   * {@code libcudart.so.13} stand-in ({@link StandIns#cudartLibDir()}): DT_NEEDED libcudart.so.13 and
   * {@code cudaRuntimeGetVersion@libcudart.so.13}, as a TE built against CUDA 13 has them.
   */
  public static Path transformerEngineOnCudart13(Path folder) throws Exception {
    Files.createDirectories(folder);
    return linkTe(folder, "extern int cudaRuntimeGetVersion(int *);\n"
        + "int nvte_cuda_standin(void) { int v = 0; cudaRuntimeGetVersion(&v); return v; }\n",
        StandIns.cudartLibDir(), List.of("-l:libcudart.so.13"));
  }

  private static Path linkTe(Path folder, String code, Path libs, List<String> links) throws Exception {
    Path source = folder.resolve("te_cuda.c");
    Files.writeString(source, code);
    Path te = folder.resolve("libtransformer_engine.so");
    List<String> args = new ArrayList<>(List.of("-shared", "-fPIC", "-Wl,-z,now", "-Wl,-z,relro",
        "-Wl,-soname,libtransformer_engine.so", "-o", te.toString(), source.toString(), "-L" + libs,
        "-Wl,--as-needed"));
    args.addAll(links);
    Gcc.run(args.toArray(String[]::new));
    return te;
  }

  private static String function(String stem) {
    return stem.substring(3) + "StandIn";
  }

}
