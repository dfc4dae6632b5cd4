package dev.tewheel.elf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * This machine's own system library folders, as the dynamic loader's cache ({@code ldconfig -p}) lists them, so the
 * tests that read real libraries run on x86_64 and aarch64 (and any multiarch or non-Debian layout) alike.
 */
final class SystemLibraries {
  private static final Pattern ENTRY = Pattern.compile("^\\s*(\\S+) \\(.*\\) => (\\S+)$", Pattern.MULTILINE);

  private SystemLibraries() {}

  /**
   * The folder(s) holding this machine's C library for the JVM's own architecture: the folders of the cache's
   * {@code libc.so.6} entries whose ELF machine is that of the running JDK's libjava.so, real paths, no repeats.
   */
  static List<Path> folders() throws IOException, InterruptedException {
    ElfMachine jvm = ElfFile.read(Path.of(System.getProperty("java.home"), "lib", "libjava.so")).header().machine();
    Set<Path> folders = new LinkedHashSet<>();
    for (Path libc : cacheEntries("libc.so.6")) {
      if (Files.isRegularFile(libc) && ElfFile.read(libc).header().machine().equals(jvm)) {
        folders.add(libc.toRealPath().getParent());
      }
    }
    if (folders.isEmpty()) {
      throw new AssertionError("ldconfig -p lists no libc.so.6 for " + jvm + ": these tests read this machine's"
          + " system libraries and found none");
    }
    return List.copyOf(folders);
  }

  /** The C library the tests read (the first of {@link #folders()}). */
  static Path libc() throws IOException, InterruptedException {
    return folders().get(0).resolve("libc.so.6");
  }

  private static List<Path> cacheEntries(String name) throws IOException, InterruptedException {
    String listing = null;
    // ldconfig lives in /sbin on most distributions, which a user's PATH may lack.
    for (String ldconfig : List.of("ldconfig", "/sbin/ldconfig", "/usr/sbin/ldconfig")) {
      try {
        Tools.Result r = Tools.run(List.of(ldconfig, "-p"));
        if (r.exitCode() == 0) {
          listing = r.stdout();
          break;
        }
      } catch (AssertionError notInstalledHere) {
        // try the next place
      }
    }
    if (listing == null) {
      throw new AssertionError("ldconfig -p could not be run (tried PATH, /sbin, /usr/sbin): these tests find the"
          + " machine's library folders through the dynamic loader's cache");
    }
    List<Path> paths = new java.util.ArrayList<>();
    Matcher m = ENTRY.matcher(listing);
    while (m.find()) {
      if (m.group(1).equals(name)) {
        paths.add(Path.of(m.group(2)));
      }
    }
    return paths;
  }
}
