package dev.tewheel.runtime.report;


/**
 * Where a setting of the report came from, e.g. the NCCL EP major ({@link Availability#requiredMajorSource()}).
 * te-runtime makes it; an application reads it. Its {@code toString()} is {@link #detail()}.
 *
 * @param origin the kind of source, for programs.
 * @param detail the same for people, e.g. {@code system property te.ncclEpMajor}.
 */
public record Provenance(Origin origin, String detail) {
  @Override
  public String toString() {
    return detail;
  }

  /** The kinds of source, from the strongest. */
  public enum Origin {
    /** The bundle's manifest, written by the build that made the bundle. */
    MANIFEST,
    /** {@link dev.tewheel.runtime.TeRuntime.Builder}. */
    API,
    /** A system property ({@code -Dte.…}). */
    SYSTEM_PROPERTY,
    /** The default of this te-runtime release. */
    DEFAULT
  }
}
