package dev.tewheel.elf;

import java.nio.file.Path;

/** Libraries gcc builds for tests outside this package. */
public final class TestLibraries {
  private TestLibraries() {}

  /** A library linked without -soname, so it has no DT_SONAME. */
  public static Path gccLibraryWithoutSoname(Path dir) throws Exception {
    return Tools.gcc(dir, "libnosoname.so", "int no_soname(void) { return 1; }\n");
  }
}
