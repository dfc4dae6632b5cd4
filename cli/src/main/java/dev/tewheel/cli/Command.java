package dev.tewheel.cli;

import java.util.List;

/** One verb of te-wheel. */
interface Command {
  /** As users type it, e.g. verify. */
  String name();

  /** Its operands and main options, for te-wheel's own usage. */
  String synopsis();

  /** One line for te-wheel's own usage. */
  String summary();

  /** Runs it; returns the exit status ({@link Exit}). */
  int run(List<String> args, Io io);
}
