package dev.tewheel.bundle.manifest;

import dev.tewheel.bundle.layout.WheelLibPaths;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One shipped file: where it is inside wheel_lib, what it is, its size and sha256; for libraries also the
 * SONAME, the CUDA device code it carries ({@code sass}, {@code ptx}: e.g. [sm_80, sm_90a] and [compute_120]; null
 * when not recorded) and, for NCCL EP, the major and full version. The path always stays inside wheel_lib.
 */
public record ManifestEntry(String path, FileKind kind, long size, String sha256, String soname, Integer major,
    String version, List<String> sass, List<String> ptx) {
  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

  public ManifestEntry {
    WheelLibPaths.requireInside("'path'", Objects.requireNonNull(path, "path"), false);
    Objects.requireNonNull(kind, "kind");
    if (size < 0) {
      throw new IllegalArgumentException("size of " + path + " is negative: " + size);
    }
    if (sha256 == null || !SHA256.matcher(sha256).matches()) {
      throw new IllegalArgumentException("sha256 of " + path + " is not 64 lower-case hex digits: " + sha256);
    }
    if ((sass == null) != (ptx == null)) {
      throw new IllegalArgumentException("GPU code of " + path + " lists " + (sass == null ? "PTX" : "SASS")
          + " without " + (sass == null ? "SASS" : "PTX"));
    }
    sass = sass == null ? null : List.copyOf(sass);
    ptx = ptx == null ? null : List.copyOf(ptx);
  }

  /** An entry without recorded GPU code, as manifests written before GPU-ARCHS have. */
  public ManifestEntry(String path, FileKind kind, long size, String sha256, String soname, Integer major,
      String version) {
    this(path, kind, size, sha256, soname, major, version, null, null);
  }

  /** The same entry with the device code its library carries. */
  public ManifestEntry withGpuCode(List<String> sassNames, List<String> ptxNames) {
    return new ManifestEntry(path, kind, size, sha256, soname, major, version, sassNames, ptxNames);
  }

  public static ManifestEntry header(String path, long size, String sha256) {
    return new ManifestEntry(path, FileKind.HEADER, size, sha256, null, null, null);
  }

}
