package dev.tewheel.core.wheel;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where the installers put one entry of a wheel: the one mapping from an entry name to the installed tree, so that
 * the gate judges what is installed, never the archive's spelling of it. Read from pip's wheel installer (pip 23,
 * {@code operations/install/wheel.py}) and Python's zipfile, which {@code wheel unpack} extracts with, and held to
 * both by InstallerDifferentialTest's generated spellings:
 * <ul>
 *   <li>Python's zipfile ends a name at its first NUL; a name ending in '/' is a folder, which pip skips and
 *       {@code wheel unpack} creates.</li>
 *   <li>pip: a file whose first '/'-separated segment (as spelled) ends in {@code .data} is of the data scheme:
 *       the name is normalised as {@code os.path.normpath} does ('.' and empty segments dropped, {@code a/..}
 *       folded), then split into that folder, a scheme key and the path under it; {@code purelib} and
 *       {@code platlib} land in site-packages beside the wheel's root, {@code scripts}, {@code headers} and
 *       {@code data} in their own folders; another key, or no path under it, and pip refuses the wheel. Any other
 *       file is normalised alike and lands in site-packages; pip refuses a path that leaves it.</li>
 *   <li>{@code wheel unpack} keeps {@code .data} folders as they are and drops empty, '.' and '..' segments.</li>
 * </ul>
 *
 * <pre>{@code
 * InstalledPath.of("transformer_engine_cu12-2.9.0.data/platlib/transformer_engine/./wheel_lib/libx.so")
 *     // SITE_PACKAGES transformer_engine/wheel_lib/libx.so
 * }</pre>
 *
 * @param entry the entry's name as stored
 * @param location where pip puts it; empty for a folder entry and for a file pip refuses ({@link #refusal})
 * @param path its path under that location ('/'-separated, normalised); for a refused file its normalised name
 * @param unpacked where {@code wheel unpack} puts it, relative to its output folder
 * @param directory whether it is a folder entry (the name ends in '/')
 * @param refusal why pip refuses the file or why the installers would place it differently; null when neither
 */
public record InstalledPath(String entry, Optional<Location> location, String path, String unpacked,
    boolean directory, String refusal) {
  /** The folders pip installs into, by the scheme keys of a {@code .data} folder. */
  public enum Location {
    /** site-packages: the wheel's root, {@code purelib} and {@code platlib} (one folder in a venv, --target). */
    SITE_PACKAGES,
    SCRIPTS,
    HEADERS,
    DATA;

    /** How messages name it: its name in lower case, e.g. site-packages. */
    public String label() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  /** Where both installers put the entry of this name. */
  public static InstalledPath of(String name) {
    String cut = name.indexOf('\0') >= 0 ? name.substring(0, name.indexOf('\0')) : name;
    String unpacked = String.join("/", unpackedSegments(cut));
    if (cut.endsWith("/")) {
      return new InstalledPath(name, Optional.empty(), normpath(cut), unpacked, true, null);
    }
    String first = cut.substring(0, cut.indexOf('/') < 0 ? cut.length() : cut.indexOf('/'));
    String normal = normpath(cut);
    if (first.endsWith(".data")) {
      String[] parts = normal.split("/", 3);
      if (parts.length < 3) {
        return refused(name, normal, unpacked, "a file of the data folder " + first + " that is not named"
            + " <scheme>/<path> (pip refuses the wheel)");
      }
      Location location = switch (parts[1]) {
        case "purelib", "platlib" -> Location.SITE_PACKAGES;
        case "scripts" -> Location.SCRIPTS;
        case "headers" -> Location.HEADERS;
        case "data" -> Location.DATA;
        default -> null;
      };
      if (location == null) {
        return refused(name, normal, unpacked, "the scheme '" + parts[1] + "' in the data folder " + parts[0]
            + ", which is none of purelib, platlib, scripts, headers, data (pip refuses the wheel; the keys are"
            + " case-sensitive)");
      }
      return new InstalledPath(name, Optional.of(location), parts[2], unpacked, false, null);
    }
    if (normal.equals(".") || normal.equals("..") || normal.startsWith("../") || normal.startsWith("/")) {
      return refused(name, normal, unpacked, normal.equals(".") ? "a name that normalises to the install folder"
          + " itself (no file can be written there)" : "a name that normalises to " + normal + ", outside"
          + " site-packages (pip refuses the wheel)");
    }
    String normalFirst = normal.substring(0, normal.indexOf('/') < 0 ? normal.length() : normal.indexOf('/'));
    String why = null;
    if (normalFirst.endsWith(".dist-info") && !cut.equals(normal)) {
      why = "a file of the dist-info folder spelled otherwise than its path " + normal + ": installers read those"
          + " files by exact name (pip METADATA and WHEEL, wheel unpack RECORD), so this one is not the one read";
    } else if (!normalFirst.equals(first) && normalFirst.endsWith(".data")) {
      // pip tells the folder by the name as spelled, so it installs this file as site-packages/<x>.data/...,
      // while wheel unpack (and a repack of what it wrote) makes it a member of that folder.
      why = "a name whose first folder is " + normalFirst + " only once normalised: pip installs it as a plain file"
          + " under site-packages/" + normalFirst + ", wheel unpack (and a repack) as part of that folder";
    }
    return new InstalledPath(name, Optional.of(Location.SITE_PACKAGES), normal, unpacked, false, why);
  }

  private static InstalledPath refused(String name, String normal, String unpacked, String why) {
    return new InstalledPath(name, Optional.empty(), normal, unpacked, false, why);
  }

  /** The name as Python's zipfile reads it: up to its first NUL. */
  public String zipName() {
    int nul = entry.indexOf('\0');
    return nul >= 0 ? entry.substring(0, nul) : entry;
  }

  /** Whether pip installs this entry as a file. */
  public boolean installed() {
    return location.isPresent() && refusal == null;
  }

  /** Whether this entry lands in site-packages, where the wheel's root is (and so wheel_lib). */
  public boolean inSitePackages() {
    return location.equals(Optional.of(Location.SITE_PACKAGES));
  }

  /**
   * The key under which two paths are one file on some file system: case folded (macOS, Windows) and in Unicode
   * normal form C (macOS compares names in a normal form, so NFC and NFD spellings are one file there).
   */
  public static String sameFileKey(String path) {
    String nfc = java.text.Normalizer.normalize(path, java.text.Normalizer.Form.NFC);
    return java.text.Normalizer.normalize(nfc.toLowerCase(Locale.ROOT), java.text.Normalizer.Form.NFC);
  }

  /** Python's posixpath.normpath: '.' and empty segments dropped, 'a/..' folded, '..' kept where nothing is left. */
  static String normpath(String path) {
    if (path.isEmpty()) {
      return ".";
    }
    int slashes = path.startsWith("//") && !path.startsWith("///") ? 2 : path.startsWith("/") ? 1 : 0;
    List<String> kept = new ArrayList<>();
    for (String segment : path.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".")) {
        continue;
      }
      if (!segment.equals("..") || slashes == 0 && kept.isEmpty()
          || !kept.isEmpty() && kept.get(kept.size() - 1).equals("..")) {
        kept.add(segment);
      } else if (!kept.isEmpty()) {
        kept.remove(kept.size() - 1);
      }
    }
    String joined = "/".repeat(slashes) + String.join("/", kept);
    return joined.isEmpty() ? "." : joined;
  }

  /** The segments zipfile's extract keeps: empty, '.' and '..' ones dropped (not folded). */
  private static List<String> unpackedSegments(String name) {
    List<String> kept = new ArrayList<>();
    for (String segment : name.split("/", -1)) {
      if (!segment.isEmpty() && !segment.equals(".") && !segment.equals("..")) {
        kept.add(segment);
      }
    }
    return kept;
  }
}
