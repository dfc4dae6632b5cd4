package dev.tewheel.cli;

/** te-wheel's exit statuses, the same for every command, for CI to read. */
final class Exit {
  /** Passed: no finding at or above --fail-on (runtime: NCCL EP available; inspect: every file read). */
  static final int PASSED = 0;
  /** Failed: a finding at or above --fail-on (pack: the new wheel was kept as .whl.rejected; runtime: not available). */
  static final int FAILED = 1;
  /** Usage or I/O error: a bad option or value, an input that cannot be read, a Java too old for the command. */
  static final int ERROR = 2;

  private Exit() {}
}
