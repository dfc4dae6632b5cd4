package dev.tewheel.cli;

import java.util.List;

/** One verb of te-wheel. */
interface Command {
  /**
   * How te-wheel's own usage lists a command.
   *
   * @param name as users type it, e.g. verify
   * @param synopsis its operands and main options
   * @param summary one line saying what it does
   */
  record Usage(String name, String synopsis, String summary) {}

  /** Its name, synopsis and summary. */
  Usage usage();

  /** Runs it; returns the exit status ({@link Exit}). */
  int run(List<String> args, Io io);
}
