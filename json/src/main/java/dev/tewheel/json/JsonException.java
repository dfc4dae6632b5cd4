package dev.tewheel.json;

/** Malformed JSON; the message gives the offset. */
public final class JsonException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /**
   * A parse error.
   *
   * @param message what is wrong, and at which offset
   */
  public JsonException(String message) {
    super(message);
  }
}
