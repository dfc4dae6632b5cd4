package dev.tewheel.loader.te;

/** Version strings ordered as numbers, as TE's pip-folder step takes the highest. */
final class Versions {
  private Versions() {}

  /** A version string as a sortable key: each number zero-padded. */
  static String key(String version) {
    StringBuilder key = new StringBuilder();
    for (String part : version.split("\\.")) {
      key.append(String.format("%010d", part.isEmpty() || !part.chars().allMatch(Character::isDigit) ? 0
          : Long.parseLong(part.length() > 9 ? part.substring(0, 9) : part)));
    }
    return key.toString();
  }
}
