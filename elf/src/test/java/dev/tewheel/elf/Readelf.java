package dev.tewheel.elf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What binutils' {@code readelf -dlW --dyn-syms -V} says about a file, parsed into {@link Facts}. -W keeps long
 * symbol names whole; symbol names carry readelf's {@code @VER}/{@code @@VER} suffix, which the plain name sets
 * drop.
 */
final class Readelf {
  private static final Pattern DYNAMIC = Pattern.compile("^\\s*0x[0-9a-f]+\\s+\\((\\w+)\\)\\s+(.*)$");
  private static final Pattern BRACKETED = Pattern.compile("\\[(.*)\\]");
  // Num: Value Size Type Bind Vis [extra st_other bits] Ndx Name [(version index)]. Type and Bind print as
  // "<OS specific>: 10" when readelf has no name for them (STB_GNU_UNIQUE in a file whose OS/ABI is not GNU).
  private static final String COLUMN = "(<[^>]*>: \\d+|\\S+)";
  private static final Pattern SYMBOL = Pattern.compile(
      "^\\s*\\d+:\\s+[0-9a-f]+\\s+\\S+\\s+" + COLUMN + "\\s+" + COLUMN + "\\s+(\\S+)\\s+(?:\\[[^\\]]*\\]\\s+)?(\\S+)"
          + "\\s?(.*?)(?:\\s+\\(\\d+\\))?$");
  private static final Pattern NEED_FILE = Pattern.compile("^\\s*[0-9a-fx]+:\\s+Version: \\d+\\s+File: (\\S+)\\s+Cnt:");
  private static final Pattern DEFINITION = Pattern.compile("^\\s*[0-9a-fx]+:\\s+Rev: \\d+\\s+Flags: .*\\sName: (\\S+)$");
  private static final Pattern NEED_NAME = Pattern.compile("^\\s*0x[0-9a-f]+:\\s+Name: (\\S+)\\s+Flags:");
  private static final Pattern INTERP = Pattern.compile("\\[Requesting program interpreter: (.*)\\]");

  private Readelf() {}

  static Facts facts(Path file) throws IOException, InterruptedException {
    return parse(Tools.check("readelf", "-dlW", "--dyn-syms", "-V", file.toString()));
  }

  static Facts parse(String output) {
    Optional<String> soname = Optional.empty();
    Optional<String> interpreter = Optional.empty();
    List<String> needed = new ArrayList<>();
    List<String> rpath = new ArrayList<>();
    List<String> runpath = new ArrayList<>();
    boolean bindNow = false;
    boolean relro = false;
    SortedSet<String> defined = new TreeSet<>();
    SortedSet<String> undefined = new TreeSet<>();
    SortedSet<String> definedVersioned = new TreeSet<>();
    SortedSet<String> undefinedVersioned = new TreeSet<>();
    SortedMap<String, SortedSet<String>> needs = new TreeMap<>();
    List<String> definitions = new ArrayList<>();
    String section = "";
    String needFile = null;
    for (String line : output.split("\n")) {
      if (line.startsWith("Program Headers:") || line.startsWith("Dynamic section")
          || line.startsWith("Symbol table") || line.startsWith("Version needs section")
          || line.startsWith("Version definition section") || line.startsWith("Version symbols section")
          || line.startsWith(" Section to Segment mapping")) {
        section = line;
        continue;
      }
      if (section.startsWith("Program Headers:")) {
        if (line.trim().startsWith("GNU_RELRO ")) {
          relro = true;
        }
        Matcher m = INTERP.matcher(line);
        if (m.find()) {
          interpreter = Optional.of(m.group(1));
        }
      } else if (section.startsWith("Dynamic section")) {
        Matcher m = DYNAMIC.matcher(line);
        if (!m.matches()) {
          continue;
        }
        String tag = m.group(1);
        String value = m.group(2);
        Matcher b = BRACKETED.matcher(value);
        String bracketed = b.find() ? b.group(1) : null;
        switch (tag) {
          case "NEEDED" -> needed.add(bracketed);
          case "SONAME" -> soname = Optional.of(bracketed);
          case "RPATH" -> rpath.addAll(split(bracketed));
          case "RUNPATH" -> runpath.addAll(split(bracketed));
          case "BIND_NOW" -> bindNow = true;
          case "FLAGS" -> bindNow |= Arrays.asList(value.trim().split("\\s+")).contains("BIND_NOW");
          case "FLAGS_1" -> bindNow |= Arrays.asList(value.trim().split("\\s+")).contains("NOW");
          default -> { }
        }
      } else if (section.startsWith("Symbol table")) {
        Matcher m = SYMBOL.matcher(line);
        if (!m.matches() || m.group(5).isEmpty()) {
          continue;
        }
        String bind = m.group(2);
        String versioned = m.group(5);
        int at = versioned.indexOf('@');
        String name = at >= 0 ? versioned.substring(0, at) : versioned;
        if (m.group(4).equals("UND")) {
          undefined.add(name);
          undefinedVersioned.add(versioned);
        } else if (bind.equals("GLOBAL") || bind.equals("WEAK") || bind.equals("UNIQUE")
            || bind.equals("<OS specific>: 10")) {
          defined.add(name);
          definedVersioned.add(versioned);
        }
      } else if (section.startsWith("Version definition section")) {
        Matcher m = DEFINITION.matcher(line);
        if (m.find()) {
          definitions.add(m.group(1));
        }
      } else if (section.startsWith("Version needs section")) {
        Matcher file = NEED_FILE.matcher(line);
        Matcher name = NEED_NAME.matcher(line);
        if (file.find()) {
          needFile = file.group(1);
          needs.computeIfAbsent(needFile, f -> new TreeSet<>());
        } else if (name.find() && needFile != null) {
          needs.get(needFile).add(name.group(1));
        }
      }
    }
    return new Facts(soname, needed, rpath, runpath, bindNow, relro, interpreter, defined, undefined,
        definedVersioned, undefinedVersioned, needs, definitions);
  }

  private static List<String> split(String path) {
    return path.isEmpty() ? List.of() : Arrays.asList(path.split(":", -1));
  }
}
