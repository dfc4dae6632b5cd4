package dev.tewheel.runtime.internal.search;

/** A bundle that must not be used, with one message for people that names the file and what to do. */
final class BundleProblem extends Exception {
  private static final long serialVersionUID = 1L;

  public BundleProblem(String message) {
    super(message);
  }

  public BundleProblem(String message, Throwable cause) {
    super(message, cause);
  }
}
