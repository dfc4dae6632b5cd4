package dev.tewheel.runtime.internal;

import dev.tewheel.bundle.io.Sha256;
import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.bundle.manifest.ManifestEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks a bundle's files against its manifest: size always, SHA-256 when asked. A file once hashed is not hashed
 * again in this process while its size, inode and ctime (which no user can set) stay the same.
 */
public final class Digests {
  private static final Map<Path, Stamp> VERIFIED = new ConcurrentHashMap<>();

  private record Stamp(long size, Object inode, Object ctime) {}

  private Digests() {}

  /**
   * Every problem of {@code folder} against {@code entries}, one sentence each; empty when all match.
   *
   * @param hashes whether to compare SHA-256 as well as sizes
   */
  public static List<String> check(Path folder, List<ManifestEntry> entries, boolean hashes) throws IOException {
    List<String> problems = new ArrayList<>();
    for (ManifestEntry entry : entries) {
      Path file = WheelLibPaths.inside(folder, entry.path());
      if (file == null) {
        problems.add("the manifest lists '" + entry.path() + "', which is outside the bundle");
        continue;
      }
      if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
        problems.add(file + " is missing");
        continue;
      }
      String kind = WheelLibPaths.kindOf(file);
      if (kind != null) {
        problems.add(file + " is " + kind + ", not the regular file the manifest lists");
        continue;
      }
      Map<String, Object> attributes = Files.readAttributes(file, "unix:size,ino,ctime", LinkOption.NOFOLLOW_LINKS);
      Stamp stamp = new Stamp((Long) attributes.get("size"), attributes.get("ino"), attributes.get("ctime"));
      if (stamp.size() != entry.size()) {
        problems.add(file + " is " + stamp.size() + " bytes, the manifest says " + entry.size());
        continue;
      }
      if (!hashes || stamp.equals(VERIFIED.get(file))) {
        continue;
      }
      String actual = Sha256.hex(Sha256.of(file));
      if (actual.equals(entry.sha256())) {
        VERIFIED.put(file, stamp);
      } else {
        VERIFIED.remove(file);
        problems.add(file + " has sha256 " + actual + ", the manifest says " + entry.sha256());
      }
    }
    return problems;
  }


}
