package dev.tewheel.cli;

import java.util.List;

/** One verb of te-wheel: how te-wheel's usage lists it, and what it runs. */
abstract class Command {
  /**
   * How te-wheel's own usage lists a command.
   *
   * @param name as users type it, e.g. verify
   * @param synopsis its operands and main options
   * @param summary one line saying what it does
   */
  record Usage(String name, String synopsis, String summary) {}

  private final Usage usage;

  Command(Usage usage) {
    this.usage = usage;
  }

  /** Its name, synopsis and summary. */
  final Usage usage() {
    return usage;
  }

  /** Runs it; returns the exit status ({@link Exit}). */
  abstract int run(List<String> args, Io io);
}
