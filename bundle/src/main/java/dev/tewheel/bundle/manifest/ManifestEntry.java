package dev.tewheel.bundle.manifest;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One shipped file: where it is inside wheel_lib, what it is, its size and sha256; for libraries also the
 * SONAME and, for NCCL EP, the major and full version.
 */
public record ManifestEntry(String path, FileKind kind, long size, String sha256, String soname, Integer major,
    String version) {
  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

  public ManifestEntry {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(kind, "kind");
    if (size < 0) {
      throw new IllegalArgumentException("size of " + path + " is negative: " + size);
    }
    if (sha256 == null || !SHA256.matcher(sha256).matches()) {
      throw new IllegalArgumentException("sha256 of " + path + " is not 64 lower-case hex digits: " + sha256);
    }
  }

  public static ManifestEntry header(String path, long size, String sha256) {
    return new ManifestEntry(path, FileKind.HEADER, size, sha256, null, null, null);
  }

  public Optional<String> sonameIfAny() {
    return Optional.ofNullable(soname);
  }
}
