package dev.tewheel.cli;

/** A command line te-wheel cannot run: the message names the option, the value and what was expected (exit 2). */
final class UsageException extends Exception {
  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message);
  }
}
