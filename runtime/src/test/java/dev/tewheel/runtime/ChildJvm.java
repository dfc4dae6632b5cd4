package dev.tewheel.runtime;

import dev.tewheel.standins.StandIns;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a class of this test class path in a fresh JVM: dlopen is process-wide, so a test that needs a process that
 * has loaded nothing (or a real second process) gets one. The child's environment drops the variables te-runtime
 * reads, so only what a test sets counts.
 */
public final class ChildJvm {
  public record Result(int exit, String out, String err) {
    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  public static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

  private ChildJvm() {}

  /**
   * {@code jvmArgs} plus {@code te.native.<name>.skip} for the CUDA libraries the stand-ins do not need (cudart,
   * cuBLASLt, cuBLAS, cuDNN, NVRTC, cuRAND), so that {@code --load} on a machine without them loads what the
   * stand-in TE needs, and no toolkit installed on the machine running the tests takes part.
   */
  public static List<String> withoutCudaLibraries(List<String> jvmArgs) {
    List<String> args = new ArrayList<>(jvmArgs);
    for (String name : List.of("cudart", "cublasLt", "cublas", "cudnn", "nvrtc", "curand")) {
      args.add("-Dte.native." + name + ".skip=true");
    }
    args.add("-Dte.defaultCudaRoot=");
    return args;
  }

  /** The java command for {@code mainClass} with this test class path (plus {@code extraClassPath}). */
  public static List<String> command(List<String> jvmArgs, String extraClassPath, Class<?> mainClass, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(JAVA);
    command.addAll(jvmArgs);
    command.add("-Dte.standIns=" + System.getProperty("te.standIns", ""));
    command.add("-cp");
    command.add(System.getProperty("java.class.path") + (extraClassPath == null ? "" : File.pathSeparator
        + extraClassPath));
    command.add(mainClass.getName());
    command.addAll(args);
    return command;
  }

  public static Process start(List<String> command, Map<String, String> env, Path logs) throws IOException {
    return start(command, env, logs, null);
  }

  /** As {@link #start(List, Map, Path)}, in the working folder {@code directory} (null: this one's). */
  public static Process start(List<String> command, Map<String, String> env, Path logs, Path directory)
      throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command);
    if (directory != null) {
      builder.directory(directory.toFile());
    }
    for (String name : List.of("NCCL_EP_HOME", "TE_WHEEL_LIB", "TE_STANDIN_MARKER", "LD_LIBRARY_PATH",
        "LD_PRELOAD", "XDG_CACHE_HOME")) {
      builder.environment().remove(name);
    }
    // What TE's search order for the CUDA libraries and NCCL EP's JIT read: a developer's CUDA_HOME or venv must
    // not decide a test (<LIB>_HOME, <LIB>_PATH, CUDA_HOME, CUDA_PATH, VIRTUAL_ENV, NCCL_EP_JIT_*, NVCC, TE_NATIVE_*).
    builder.environment().keySet().removeIf(name -> name.matches(
        "(CUDART|CUBLASLT|CUBLAS|CUDNN|NVRTC|CURAND|NCCL|CUDA)_(HOME|PATH)|VIRTUAL_ENV|NCCL_EP_JIT_.*|NVCC|TE_NATIVE_.*"));
    // A machine with a CUDA driver: NCCL EP NEEDS libcuda.so.1, found here as the driver's would be. A test that
    // wants a machine without one passes LD_LIBRARY_PATH "".
    builder.environment().put("LD_LIBRARY_PATH", StandIns.cudaLibDir().toString());
    builder.environment().putAll(env);
    if (builder.environment().getOrDefault("LD_LIBRARY_PATH", "").isEmpty()) {
      builder.environment().remove("LD_LIBRARY_PATH");
    }
    Files.createDirectories(logs);
    builder.redirectOutput(logs.resolve("stdout").toFile());
    builder.redirectError(logs.resolve("stderr").toFile());
    return builder.start();
  }

  public static Result finish(Process process, Path logs) throws IOException, InterruptedException {
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("the child JVM did not finish in 120 s: " + read(logs));
    }
    return new Result(process.exitValue(), Files.readString(logs.resolve("stdout"), StandardCharsets.UTF_8),
        Files.readString(logs.resolve("stderr"), StandardCharsets.UTF_8));
  }

  public static Result run(List<String> command, Map<String, String> env, Path logs) throws IOException, InterruptedException {
    return finish(start(command, env, logs), logs);
  }

  private static String read(Path logs) throws IOException {
    return Files.readString(logs.resolve("stdout")) + Files.readString(logs.resolve("stderr"));
  }
}
