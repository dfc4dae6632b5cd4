package dev.tewheel.pip;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.spi.ToolProvider;

/** The JDK's tools of the JDK that runs this build step, and other programs, each run to its end with its output. */
final class Tools {
  private Tools() {}

  /** Runs the JDK tool {@code name} (jdeps, jlink, javac, jar) in this JVM; its output, or an error with it. */
  static String jdk(String name, List<String> args) throws IOException {
    ToolProvider tool = ToolProvider.findFirst(name).orElseThrow(() -> new IOException("the JDK at "
        + System.getProperty("java.home") + " has no " + name + " tool: expected a full JDK 22+ (not a JRE)"));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8)) {
      int exit = tool.run(print, print, args.toArray(String[]::new));
      String text = out.toString(StandardCharsets.UTF_8);
      if (exit != 0) {
        throw new IOException(name + " " + String.join(" ", args) + " exited " + exit + ":\n" + text);
      }
      return text;
    }
  }

  /** What a program did: its exit status and its standard output and error, together. */
  record Run(int exit, String output) {}

  /** Runs {@code command} in {@code folder} with the environment changed by {@code environment}; at most 10 minutes. */
  static Run program(List<String> command, Path folder, Map<String, String> environment) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command)).directory(folder.toFile())
        .redirectErrorStream(true);
    builder.environment().putAll(environment);
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new IOException("cannot run " + command.get(0) + ": " + e.getMessage()
          + (command.get(0).equals("patchelf") ? " (install it: apt-get install patchelf)" : ""), e);
    }
    try {
      process.getOutputStream().close();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(10, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new IOException(String.join(" ", command) + " still ran after 10 minutes");
      }
      return new Run(process.exitValue(), output);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while " + String.join(" ", command) + " ran", e);
    }
  }

  /** As {@link #program}, failing unless it exits 0. */
  static String succeed(List<String> command, Path folder, Map<String, String> environment) throws IOException {
    Run run = program(command, folder, environment);
    if (run.exit() != 0) {
      throw new IOException(String.join(" ", command) + " exited " + run.exit() + ":\n" + run.output());
    }
    return run.output();
  }
}
