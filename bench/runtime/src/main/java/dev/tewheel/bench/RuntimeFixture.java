package dev.tewheel.bench;

import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What the te-runtime benchmarks load: a wheel_lib in TE's default layout made of the stand-ins, the stand-in
 * libnccl.so.2, and the JNI stub compiled by gcc from this jar's runtime_jni.c.
 */
final class RuntimeFixture {
  private RuntimeFixture() {}

  /**
   * A fresh wheel_lib: libtransformer_engine.so, libnccl_ep.so and nccl_ep/include/. Also loads the stand-in CUDA
   * driver, which NCCL EP NEEDS, as a GPU host has it (there the ld.so cache finds the driver's libcuda.so.1).
   */
  static Path wheelLib() throws IOException {
    System.load(cudaLibDir().resolve("libcuda.so.1").toString());
    return layOut(tempFolder("te-runtime-bench").resolve("wheel_lib"));
  }

  /** Lays out the stand-in wheel_lib in {@code folder} (created; kept after the JVM exits). */
  static Path layOut(Path folder) throws IOException {
    Files.createDirectories(folder);
    Files.copy(StandIns.transformerEngine(), folder.resolve("libtransformer_engine.so"));
    Files.copy(StandIns.ncclEpLibrary(), folder.resolve("libnccl_ep.so"));
    Path include = StandIns.ncclEpHome().resolve("include");
    try (Stream<Path> files = Files.walk(include)) {
      for (Path file : files.toList()) {
        Path target = folder.resolve("nccl_ep/include").resolve(include.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target);
        }
      }
    }
    return folder;
  }

  /**
   * A temporary folder removed when the JVM exits: every fork makes its own, and the libraries loaded from it stay
   * mapped after their files are unlinked.
   */
  private static Path tempFolder(String prefix) throws IOException {
    Path folder = Files.createTempDirectory(prefix);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try (Stream<Path> walk = Files.walk(folder)) {
        for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(path);
        }
      } catch (IOException | UncheckedIOException e) {
        System.err.println("could not remove " + folder + ": " + e);
      }
    }, "remove " + folder));
    return folder;
  }

  /** The folder of the stand-in CUDA driver, libcuda.so.1, which NCCL EP NEEDS. */
  static Path cudaLibDir() {
    return StandIns.cudaLibDir();
  }

  /** The stand-in libnccl.so.2 (2.30.4). */
  static Path nccl() {
    return StandIns.ncclLibDir().resolve("libnccl.so.2");
  }

  /**
   * Compiles the JNI stub against this JVM's headers: {@code gcc -O2 -shared -fPIC -I$JAVA_HOME/include
   * -I$JAVA_HOME/include/linux}.
   */
  static Path compileJniStub() throws IOException, InterruptedException {
    Path folder = tempFolder("te-runtime-jni");
    Path source = folder.resolve("runtime_jni.c");
    try (InputStream in = RuntimeFixture.class.getResourceAsStream("runtime_jni.c")) {
      if (in == null) {
        throw new IllegalStateException("runtime_jni.c is missing from the benchmark jar");
      }
      Files.copy(in, source);
    }
    Path javaHome = Path.of(System.getProperty("java.home"));
    if (!Files.isRegularFile(javaHome.resolve("include/jni.h"))) {
      throw new IllegalStateException(javaHome + " has no include/jni.h: run the benchmark on a JDK, not a JRE");
    }
    Path library = folder.resolve("libruntime_jni.so");
    List<String> command = List.of("gcc", "-O2", "-shared", "-fPIC", "-I" + javaHome.resolve("include"),
        "-I" + javaHome.resolve("include/linux"), "-o", library.toString(), source.toString(), "-ldl");
    Process gcc;
    try {
      gcc = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new IllegalStateException("the JNI comparison needs gcc on PATH (Debian: apt-get install gcc)", e);
    }
    String output = new String(gcc.getInputStream().readAllBytes());
    if (!gcc.waitFor(60, TimeUnit.SECONDS) || gcc.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed:\n" + output);
    }
    return library;
  }
}
