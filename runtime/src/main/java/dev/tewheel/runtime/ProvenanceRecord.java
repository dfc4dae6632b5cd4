package dev.tewheel.runtime;

/** {@link Provenance}'s value. Package-private, so its constructor is no part of the API. */
record ProvenanceRecord(Origin origin, String detail) implements Provenance {
  @Override
  public String toString() {
    return detail;
  }
}
