package dev.tewheel.core.wheel;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's interpreter and its python3-pip and python3-wheel, the installers the differential tests hold te-wheel
 * to. A test that needs them fails when they are missing; nothing is skipped.
 */
public final class DebianPython {
  /** Debian's interpreter, whose python3-pip and python3-wheel .ci/run installs. */
  public static final String PYTHON = "/usr/bin/python3";

  private DebianPython() {}

  /** What a command did: its exit status and its output (stdout and stderr together). */
  public record Result(int exit, String output) {
    /** The last line of the output, for messages. */
    public String lastLine() {
      return DebianPython.lastLine(output);
    }
  }

  /** The last line of a command's output, for messages. */
  public static String lastLine(String output) {
    String[] lines = output.strip().split("\n");
    return lines[lines.length - 1];
  }

  /** Fails the test, saying what to install, unless pip and wheel answer. */
  public static void requireInstallers() throws IOException, InterruptedException {
    for (List<String> probe : List.of(List.of(PYTHON, "-m", "pip", "--version"),
        List.of(PYTHON, "-m", "wheel", "version"))) {
      Result result = run(probe, Path.of("."), 60);
      if (result.exit() != 0) {
        fail(String.join(" ", probe) + " failed (" + result.lastLine() + "): the differential tests need Debian's"
            + " python3-pip and python3-wheel (apt-get install python3-pip python3-wheel; .ci/run does)");
      }
    }
  }

  /**
   * Runs a command in {@code directory} with pip's configuration, the user's site folder and byte-code writing
   * switched off; fails the test when it does not finish within {@code seconds}.
   */
  public static Result run(List<String> command, Path directory, long seconds)
      throws IOException, InterruptedException {
    Path log = Files.createTempFile("te-wheel-installer", ".log");
    try {
      ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
          .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
      builder.environment().put("PIP_CONFIG_FILE", "/dev/null");
      builder.environment().put("PIP_ROOT_USER_ACTION", "ignore");
      builder.environment().put("PYTHONDONTWRITEBYTECODE", "1");
      builder.environment().put("PYTHONNOUSERSITE", "1");
      Process process = builder.start();
      if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(String.join(" ", command) + " did not finish in " + seconds + " s");
      }
      return new Result(process.exitValue(), new String(Files.readAllBytes(log), StandardCharsets.UTF_8));
    } finally {
      Files.delete(log);
    }
  }
}
