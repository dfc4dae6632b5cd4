package dev.tewheel.core.check;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.wheel.WheelArchive;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Every entry name is a plain relative path that installs inside site-packages and nowhere else: not absolute, no
 * drive letter, no backslash, no {@code ..} segment; no two names that a case-insensitive file system (or a plain
 * duplicate) would merge; no symbolic links, which pip ignores and a hostile wheel uses to write through; no NUL or
 * other control character, since Python's zipfile (so pip) cuts a name at its NUL and installs the entry under
 * another file's name, and a newline in a name forges lines in logs and in RECORD's readers.
 */
final class WheelPathsCheck extends WheelCheck {
  private static final Pattern DRIVE = Pattern.compile("^[A-Za-z]:.*", Pattern.DOTALL);

  WheelPathsCheck() {
    super("WHEEL-PATHS",
        "entry names are relative, without drive, backslash, '..' or control characters, unique ignoring case; no"
            + " symlink entries", Severity.ERROR);
  }

  @Override
  List<Finding> check(WheelArchive wheel, Subject subject) {
    List<Finding> findings = new ArrayList<>();
    String expected = "a relative '/'-separated path that stays inside the wheel";
    String fix = "rebuild the wheel from a clean staging folder with a PEP 427 tool (wheel pack); an installer"
        + " that trusts this name writes outside site-packages";
    Map<String, String> seen = new HashMap<>();
    for (WheelArchive.Entry entry : wheel.entries()) {
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
      for (String segment : name.split("[/\\\\]")) {
        if (segment.equals("..")) {
          findings.add(finding(file, "a '..' segment in the entry name", expected, fix));
          break;
        }
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
      String key = stripSlash(name).toLowerCase(Locale.ROOT);
      String first = seen.putIfAbsent(key, name);
      if (first != null) {
        findings.add(finding(file, first.equals(name) ? "a second entry with the same name"
            : "a name that differs from the entry " + first + " only in case", "each name once, ignoring case",
            "keep one of them: installers overwrite one with the other (on macOS and Windows even when the case"
                + " differs), so what ships depends on the order of entries"));
      }
    }
    return findings;
  }

  /** C0 and C1 controls and DEL: nothing a file name needs, everything a terminal acts on. */
  private static boolean isControl(int c) {
    return c < 0x20 || c >= 0x7f && c <= 0x9f;
  }

  private static String stripSlash(String name) {
    return name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
  }
}
