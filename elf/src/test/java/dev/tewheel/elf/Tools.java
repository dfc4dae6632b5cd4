package dev.tewheel.elf;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the external tools the tests compare with or build with; a missing tool fails loudly, naming its package. */
final class Tools {
  private Tools() {}

  /** What a finished process printed. */
  record Result(int exitCode, String stdout, String stderr) {}

  /** Runs {@code command} in the C locale, waiting at most two minutes. */
  static Result run(List<String> command) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command);
    Map<String, String> env = builder.environment();
    env.put("LC_ALL", "C");
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new AssertionError(command.get(0) + " could not be started (" + e.getMessage() + "): this test needs it."
          + " Install it: " + packageOf(command.get(0)), e);
    }
    process.getOutputStream().close();
    // Drain stderr beside stdout so neither pipe fills and blocks the process.
    var stderr = new java.util.concurrent.CompletableFuture<String>();
    Thread drain = new Thread(() -> {
      try {
        stderr.complete(new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
      } catch (IOException e) {
        stderr.complete("");
      }
    });
    drain.setDaemon(true);
    drain.start();
    String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(2, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      fail(String.join(" ", command) + " did not finish in two minutes");
    }
    drain.join();
    return new Result(process.exitValue(), stdout, stderr.join());
  }

  /** Runs {@code command} and fails the test unless it exits with 0. */
  static String check(String... command) throws IOException, InterruptedException {
    Result r = run(List.of(command));
    if (r.exitCode() != 0) {
      fail(String.join(" ", command) + " exited with " + r.exitCode() + ":\n" + r.stderr());
    }
    return r.stdout();
  }

  /** Compiles C source into a shared object with gcc and the extra flags given. */
  static Path gcc(Path dir, String fileName, String source, String... flags) throws IOException,
      InterruptedException {
    Path c = dir.resolve(fileName + ".c");
    java.nio.file.Files.writeString(c, source);
    Path out = dir.resolve(fileName);
    List<String> command = new ArrayList<>(List.of("gcc", "-shared", "-fPIC", "-O1", "-o", out.toString()));
    command.addAll(List.of(flags));
    command.add(c.toString());
    check(command.toArray(String[]::new));
    return out;
  }

  private static String packageOf(String tool) {
    return switch (tool) {
      case "readelf", "objcopy", "strip" -> "binutils (Debian: apt-get install binutils)";
      case "gcc" -> "gcc (Debian: apt-get install gcc; for -m32 also gcc-multilib)";
      default -> tool;
    };
  }
}
