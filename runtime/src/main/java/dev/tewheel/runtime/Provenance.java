package dev.tewheel.runtime;

/**
 * Where a setting of the report came from, e.g. the NCCL EP major ({@link Availability#requiredMajorSource()}).
 * te-runtime makes it; an application reads it. Its {@code toString()} is {@link #detail()}.
 */
public sealed interface Provenance permits ProvenanceRecord {
  /** The kind of source, for programs. */
  Origin origin();

  /** The same for people, e.g. {@code system property te.ncclEpMajor}. */
  String detail();

  /** The kinds of source, from the strongest. */
  enum Origin {
    /** The bundle's manifest, written by the build that made the bundle. */
    MANIFEST,
    /** {@link TeRuntime.Builder}. */
    API,
    /** A system property ({@code -Dte.…}). */
    SYSTEM_PROPERTY,
    /** The default of this te-runtime release. */
    DEFAULT
  }
}
