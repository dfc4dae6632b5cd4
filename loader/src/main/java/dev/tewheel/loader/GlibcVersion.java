package dev.tewheel.loader;

/** A glibc release, major and minor ({@code 2.39}): the rules of its dynamic loader change with it. */
public record GlibcVersion(int major, int minor) {
  /** Whether this is at least {@code major.minor}. */
  public boolean atLeast(int major, int minor) {
    return this.major > major || (this.major == major && this.minor >= minor);
  }

  /** The version gnu_get_libc_version() prints ({@code 2.39}, {@code 2.28.9000}); a trailing non-digit is dropped. */
  public static GlibcVersion parse(String text) {
    String[] parts = text.split("\\.");
    if (parts.length < 2) {
      throw new IllegalArgumentException("not a glibc version (major.minor): " + text);
    }
    return new GlibcVersion(Integer.parseInt(parts[0]), Integer.parseInt(parts[1].replaceAll("\\D.*", "")));
  }

  @Override
  public String toString() {
    return major + "." + minor;
  }
}
