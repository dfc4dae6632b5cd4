package dev.tewheel.core.check.wheel;

import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.WheelCheck;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.wheel.InstalledPath;
import dev.tewheel.core.wheel.InstalledTree;
import dev.tewheel.core.zip.WheelArchive;
import dev.tewheel.elf.ByteSource;
import dev.tewheel.elf.ElfFile;
import java.io.IOException;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Every entry name is a plain relative path that installs inside site-packages and nowhere else: not absolute, no
 * drive letter, no backslash, no {@code ..} segment; judged where the installers put it ({@link InstalledTree}):
 * no two entries on one installed file, whether spelled alike, respelled ({@code ./}, {@code //}, {@code /./}),
 * moved there from {@code <x>.data/purelib} or {@code platlib}, or merged by a case-insensitive or
 * normalising file system; nothing pip refuses or that pip and {@code wheel unpack} place apart; no symbolic links, which pip ignores and a hostile wheel uses to write through; no NUL or
 * other control character, since Python's zipfile (so pip) cuts a name at its NUL and installs the entry under
 * another file's name, and a newline in a name forges lines in logs and in RECORD's readers.
 */
public final class WheelPathsCheck extends WheelCheck {
  private static final Pattern DRIVE = Pattern.compile("^[A-Za-z]:.*", Pattern.DOTALL);
  /** Top folders of an environment's prefix that hold site-packages, scripts or headers on some system. */
  private static final Set<String> PREFIX_FOLDERS = Set.of("lib", "lib64", "local", "bin", "include", "scripts");

  public WheelPathsCheck() {
    super("WHEEL-PATHS",
        "entry names are relative, without drive, backslash, '..' or control characters; each installed file"
            + " comes from one entry, ignoring case and Unicode normal form; no symlink entries", Severity.ERROR);
  }

  @Override
  protected List<Finding> check(WheelArchive wheel, Subject subject) {
    List<Finding> findings = new ArrayList<>();
    String expected = "a relative '/'-separated path that stays inside the wheel";
    String fix = "rebuild the wheel from a clean staging folder with a PEP 427 tool (wheel pack); an installer"
        + " that trusts this name writes outside site-packages";
    InstalledTree tree = InstalledTree.of(wheel.entries());
    for (int i = 0; i < wheel.entries().size(); i++) {
      WheelArchive.Entry entry = wheel.entries().get(i);
      String name = entry.name();
      String file = wheel.path() + "!" + name;
      if (name.startsWith("/")) {
        findings.add(finding(file, "an absolute entry name", expected, fix));
      }
      if (DRIVE.matcher(name).matches()) {
        findings.add(finding(file, "an entry name with the drive letter " + name.substring(0, 2), expected, fix));
      }
      if (name.indexOf('\\') >= 0) {
        findings.add(finding(file, "a backslash in the entry name", expected + " ('/' is the only separator)", fix));
      }
      boolean parentSegment = Arrays.asList(name.split("[/\\\\]")).contains("..");
      if (parentSegment) {
        findings.add(finding(file, "a '..' segment in the entry name", expected, fix));
      }
      int nul = name.indexOf('\0');
      if (nul >= 0) {
        findings.add(finding(file, "a NUL byte in the entry name: Python's zipfile, so pip, cuts the name there and"
            + " installs this entry as '" + name.substring(0, nul) + "'", expected + ", without control characters",
            "remove the entry: an installer writes its bytes over (or instead of) the file of the shorter name"));
      } else {
        name.codePoints().filter(WheelPathsCheck::isControl).findFirst().ifPresent(c -> findings.add(finding(file,
            String.format(Locale.ROOT, "a control character (U+%04X) in the entry name", c), expected
                + ", without control characters", "rename the file: control characters in names forge lines in"
                + " logs and consoles, and tools disagree on them")));
      }
      if (entry.symlink()) {
        findings.add(finding(file, "a symbolic link entry (unix mode 0120000)", "regular files only",
            "ship the file the link points to under this name; pip ignores links and a hostile wheel uses them"
                + " to write outside the install folder"));
      }
      InstalledPath installed = tree.get(i);
      if (installed.refusal() != null && !name.startsWith("/") && !parentSegment) { // else said above
        findings.add(finding(file, installed.refusal(), "a name pip installs, and places as wheel unpack does",
            "rename the entry to the plain path it should install as (<dist>-<version>.data/<scheme>/<path>"
                + " for the data folders)"));
      }
    }
    elfInPurelib(wheel, tree, findings);
    sameFile(wheel, tree, findings);
    folderEntries(wheel, tree, findings);
    targetFolders(wheel, tree, findings);
    return findings;
  }

  /**
   * Two files pip installs on one: the same name twice, a respelling ({@code ./}, {@code a//b}, {@code a/./b}), the
   * same path under {@code <x>.data/purelib} or {@code platlib}, or a name that differs only in case or Unicode
   * normal form (one file on macOS and Windows); and a file where another entry needs a folder. Reported on the
   * entry pip writes later, whose bytes are what stays installed.
   */
  private void sameFile(WheelArchive wheel, InstalledTree tree, List<Finding> findings) {
    Map<String, InstalledPath> files = new LinkedHashMap<>();
    for (int i : tree.installOrder()) {
      InstalledPath path = tree.get(i);
      InstalledPath first = files.putIfAbsent(key(path.location().orElseThrow(), path.path()), path);
      if (first == null) {
        continue;
      }
      String file = wheel.origin(path.entry());
      String fix = "keep one of them: an installer writes both to one file, so the order of entries decides"
          + " what ships";
      if (first.entry().equals(path.entry())) {
        findings.add(finding(file, "a second entry with the same name", "each name once", fix));
      } else if (first.path().equals(path.path())) {
        findings.add(finding(file, "an entry installed as " + where(path) + ", the file the entry "
            + first.entry() + " installs too (pip writes this one last, over it)", "each installed file from one"
            + " entry", fix + " (pip drops '.' and empty segments and installs <x>.data/purelib and platlib into"
            + " site-packages)"));
      } else {
        String how = nfc(first.path()).equals(nfc(path.path())) ? "Unicode normal form"
            : first.path().equalsIgnoreCase(path.path()) ? "case" : "case and Unicode normal form";
        findings.add(finding(file, "a name that differs from the entry " + first.entry() + " only in " + how
            + " (installed as " + where(first) + " and "
            + where(path) + ")", "each installed file once, ignoring case and Unicode normal form",
            fix + " (macOS and Windows install both names as one file)"));
      }
    }
    for (InstalledPath path : files.values()) {
      String parent = path.path();
      for (int slash = parent.lastIndexOf('/'); slash > 0; slash = parent.lastIndexOf('/')) {
        parent = parent.substring(0, slash);
        InstalledPath blocker = files.get(key(path.location().orElseThrow(), parent));
        if (blocker != null) {
          findings.add(finding(wheel.origin(path.entry()), "an entry installed as " + where(path) + ", inside "
              + parent + ", which the entry " + blocker.entry() + " installs as a file (pip and wheel unpack"
              + " fail)", "a file and a folder never at one path", "rename one of them"));
          break;
        }
      }
    }
  }

  /**
   * No ELF file (told by its first four bytes, whatever its name) in a folder named purelib, which is how auditwheel
   * reads a wheel: it calls one an invalid binary wheel. pip installs {@code <x>.data/purelib} into purelib, which
   * is another folder than platlib on some systems (lib against lib64), away from the package beside it.
   */
  private void elfInPurelib(WheelArchive wheel, InstalledTree tree, List<Finding> findings) {
    for (int i = 0; i < tree.paths().size(); i++) {
      InstalledPath path = tree.get(i);
      List<String> folders = Arrays.asList(path.unpacked().split("/"));
      if (path.directory() || !folders.subList(0, folders.size() - 1).contains("purelib")) {
        continue;
      }
      String found;
      try (ByteSource source = wheel.source(i)) {
        found = ElfFile.startsWithMagic(source) ? "an ELF file in a purelib folder" : null;
      } catch (IOException e) {
        found = "an entry in a purelib folder that cannot be read to tell whether it is ELF (" + e.getMessage() + ")";
      }
      if (found != null) {
        findings.add(finding(wheel.origin(path.entry()), found + " (auditwheel calls such a wheel an invalid"
            + " binary wheel)", "native code installed into platlib: the wheel's root (Root-Is-Purelib: false) or"
            + " <dist>-<version>.data/platlib/", "move it out of the purelib folder; on systems where purelib and"
            + " platlib differ, pip installs it away from the package that loads it"));
      }
    }
  }

  /** A folder entry where another entry's file lands: pip skips folder entries, wheel unpack fails on it. */
  private void folderEntries(WheelArchive wheel, InstalledTree tree, List<Finding> findings) {
    Map<String, InstalledPath> unpackedFiles = new HashMap<>();
    tree.paths().stream().filter(p -> !p.directory())
        .forEach(p -> unpackedFiles.putIfAbsent(InstalledPath.sameFileKey(p.unpacked()), p));
    for (InstalledPath folder : tree.paths()) {
      InstalledPath file = folder.directory() ? unpackedFiles.get(InstalledPath.sameFileKey(folder.unpacked()))
          : null;
      if (file != null) {
        findings.add(finding(wheel.origin(folder.entry()), "a folder entry at " + folder.unpacked() + ", where the"
            + " entry " + file.entry() + " is a file (wheel unpack fails; pip skips folder entries)",
            "a file and a folder never at one path", "remove the folder entry"));
      }
    }
  }

  /**
   * The data folder installs relative to the environment's prefix, where site-packages ({@code lib/pythonX.Y/
   * site-packages}, {@code lib/python} for {@code pip install --target} and {@code --home}), scripts ({@code bin})
   * and headers ({@code include}) live too; and {@code pip install --target} moves each top-level name of the data
   * folder, {@code bin} and {@code include} into the target folder beside the wheel's root files, skipping (with
   * --upgrade: replacing) a name that is already there. Each such name may come from one place only.
   */
  private void targetFolders(WheelArchive wheel, InstalledTree tree, List<Finding> findings) {
    Map<String, InstalledPath> rootNames = new HashMap<>();
    Map<InstalledPath.Location, InstalledPath> homeFolders = new EnumMap<>(InstalledPath.Location.class);
    for (int i : tree.installOrder()) {
      InstalledPath path = tree.get(i);
      InstalledPath.Location location = path.location().orElseThrow();
      if (location == InstalledPath.Location.SITE_PACKAGES) {
        rootNames.putIfAbsent(InstalledPath.sameFileKey(topName(path.path())), path);
      } else {
        homeFolders.putIfAbsent(location, path);
      }
    }
    String fix = "install data files under a folder of their own (e.g. share/<project>/), scripts and headers"
        + " through <dist>-<version>.data/scripts and headers";
    for (int i : tree.installOrder()) {
      InstalledPath path = tree.get(i);
      String top = InstalledPath.sameFileKey(topName(path.path()));
      if (path.location().orElseThrow() == InstalledPath.Location.DATA) {
        if (PREFIX_FOLDERS.contains(top)) {
          findings.add(finding(wheel.origin(path.entry()), "a data file installed as " + where(path) + ", in the"
              + " prefix's " + topName(path.path()) + "/ where site-packages, scripts or headers live (lib/pythonX.Y/"
              + "site-packages in a venv, lib/python with pip install --target)", "data files outside the folders"
              + " pip installs the wheel's other files into", fix));
        } else if (rootNames.containsKey(top)) {
          findings.add(finding(wheel.origin(path.entry()), "a data file installed as " + where(path) + ", whose"
              + " top folder " + topName(path.path()) + " the wheel's root has too (entry "
              + rootNames.get(top).entry() + "): pip install --target skips it (with --upgrade it replaces the"
              + " root's)", "data files outside the folders pip installs the wheel's other files into", fix));
        }
      }
    }
    for (InstalledPath.Location location : List.of(InstalledPath.Location.SCRIPTS, InstalledPath.Location.HEADERS)) {
      String folder = location == InstalledPath.Location.SCRIPTS ? "bin" : "include";
      InstalledPath root = rootNames.get(folder);
      if (homeFolders.containsKey(location) && root != null) {
        findings.add(finding(wheel.origin(root.entry()), "a root folder " + folder + "/ while the wheel installs "
            + location.label() + " (entry " + homeFolders.get(location).entry() + "), which pip install --target"
            + " puts into the target folder's " + folder + "/ too: it skips them (with --upgrade they replace this"
            + " folder)", "the root's top folders apart from the target's bin/ and include/",
            "move the package's files out of " + folder + "/"));
      }
    }
  }

  private static String key(InstalledPath.Location location, String path) {
    return location + "/" + InstalledPath.sameFileKey(path);
  }

  private static String where(InstalledPath path) {
    return path.location().map(InstalledPath.Location::label).orElse("?") + "/" + path.path();
  }

  private static String topName(String path) {
    int slash = path.indexOf('/');
    return slash < 0 ? path : path.substring(0, slash);
  }

  private static String nfc(String path) {
    return Normalizer.normalize(path, Normalizer.Form.NFC);
  }

  /** C0 and C1 controls and DEL: nothing a file name needs, everything a terminal acts on. */
  private static boolean isControl(int c) {
    return c < 0x20 || c >= 0x7f && c <= 0x9f;
  }
}
