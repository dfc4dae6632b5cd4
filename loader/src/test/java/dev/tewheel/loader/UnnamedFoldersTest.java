package dev.tewheel.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which search-list entries name no folder, split as each list's reader splits it, and how each is named. */
class UnnamedFoldersTest {
  @Test
  void emptyAndRelativeEntriesNameNoFolderOnceEachInOrder() {
    assertEquals(List.of("", "bin", "./lib"), UnnamedFolders.in(":/usr/bin:bin::./lib:bin:", ":"));
    // glibc splits LD_LIBRARY_PATH on ';' too
    assertEquals(List.of("lib", ""), UnnamedFolders.in("/a;lib:;/b", ":;"));
    assertEquals(List.of("lib;x"), UnnamedFolders.in("/a:lib;x", ":"));
    assertEquals(List.of(), UnnamedFolders.in("", ":"));
    assertEquals(List.of(), UnnamedFolders.in(null, ":"));
    assertTrue(UnnamedFolders.named("/usr/bin"));
    assertFalse(UnnamedFolders.named("usr/bin"));
    assertFalse(UnnamedFolders.named(""));
  }

  @Test
  void eachEntryIsNamedWithWhereItPointsAndWhatTeWheelDoes() {
    assertEquals("the PATH entry '' (the current folder)", UnnamedFolders.describe("PATH", ""));
    assertEquals("the PATH entry '.' (the current folder)", UnnamedFolders.describe("PATH", "."));
    assertEquals("the LD_LIBRARY_PATH entry 'lib' (relative, so a folder below the current one)",
        UnnamedFolders.describe("LD_LIBRARY_PATH", "lib"));
    assertEquals(List.of("the LD_LIBRARY_PATH entry 'lib' (relative, so a folder below the current one) is skipped:"
        + " te-wheel runs and loads nothing from a folder not named by an absolute path, so it looks for libraries"
        + " only in the other entries. Name the folder by its absolute path, or remove the entry"),
        UnnamedFolders.warnings("LD_LIBRARY_PATH", List.of("/a", "lib", "lib"), "libraries"));
  }
}
