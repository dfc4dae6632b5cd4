package dev.tewheel.gpu;

import java.util.function.Function;

/** How the smoke tools treat a command line they cannot use: the reason and the usage on stderr, exit status 2. */
final class Usage {
  private Usage() {}

  /** {@code parse(args)}; when it throws IllegalArgumentException, prints {@code tool: <reason>} and {@code usage}. */
  static <T> T parseOrExit(String tool, String usage, Function<String[], T> parse, String[] args) {
    try {
      return parse.apply(args);
    } catch (IllegalArgumentException e) {
      System.err.println(tool + ": " + e.getMessage());
      System.err.println(usage);
      System.exit(2);
      throw e; // System.exit does not return
    }
  }
}
