package dev.tewheel.loader;

/** The step of the dynamic linker's search that bound a DT_NEEDED entry; {@link #toString()} is the reports' word. */
public enum FoundBy {
  /** A copy already mapped in the process, which a DT_NEEDED of its SONAME binds to. */
  ALREADY_LOADED("already loaded"),
  /** The copy te-runtime loads first (the libnccl.so.2 the NCCL gate read). */
  PRELOADED("preloaded by te-runtime"),
  /** The name has a '/': that file. */
  PATH("path"),
  /** DT_RPATH of the needing object or of one that loaded it, up to the executable's. */
  RPATH("RPATH"),
  /** The {@code LD_LIBRARY_PATH} environment variable. */
  LD_LIBRARY_PATH("LD_LIBRARY_PATH"),
  /** DT_RUNPATH of the needing object. */
  RUNPATH("RUNPATH"),
  /** {@code /etc/ld.so.cache}. */
  LD_SO_CACHE("/etc/ld.so.cache"),
  /** The linker's built-in folders ({@code /lib/x86_64-linux-gnu}, {@code /lib64}, ...). */
  DEFAULT_FOLDER("default folder"),
  /** No step found a usable file. */
  NOT_FOUND("not found");

  private final String text;

  FoundBy(String text) {
    this.text = text;
  }

  @Override
  public String toString() {
    return text;
  }
}
