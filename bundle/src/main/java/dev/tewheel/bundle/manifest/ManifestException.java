package dev.tewheel.bundle.manifest;

/** A manifest that cannot be read as one; the message names the file and what is wrong. */
public final class ManifestException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public ManifestException(String message, Throwable cause) {
    super(message, cause);
  }
}
