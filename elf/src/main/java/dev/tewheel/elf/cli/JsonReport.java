package dev.tewheel.elf.cli;

import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.VersionNeed;
import dev.tewheel.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/** The {@code --json} output: one array, one object per file; the schema is in docs/elf.md. */
final class JsonReport {
  /** The array and each file's object one member per line; each value (a list, versionNeeds) on one line. */
  private static final int MULTILINE_DEPTH = 2;

  private final List<Object> files = new ArrayList<>();

  void add(String path, ElfFile elf) {
    Map<String, Object> file = new LinkedHashMap<>();
    file.put("path", path);
    file.put("class", elf.header().elfClass().bits());
    file.put("data", elf.header().data().name());
    file.put("machine", elf.header().machine().name());
    file.put("type", elf.header().type().name());
    file.put("soname", elf.soname().orElse(null));
    file.put("needed", List.copyOf(elf.needed()));
    file.put("rpath", List.copyOf(elf.rpath()));
    file.put("runpath", List.copyOf(elf.runpath()));
    file.put("bindNow", elf.bindNow());
    file.put("relro", elf.relro());
    file.put("definedSymbols", List.copyOf(elf.definedSymbolNames()));
    file.put("undefinedSymbols", List.copyOf(elf.undefinedSymbolNames()));
    Map<String, Object> needs = new LinkedHashMap<>();
    versionNeedsByFile(elf).forEach((needed, versions) -> needs.put(needed, List.copyOf(versions)));
    file.put("versionNeeds", needs);
    files.add(file);
  }

  void addError(String path, String message) {
    Map<String, Object> file = new LinkedHashMap<>();
    file.put("path", path);
    file.put("error", message);
    files.add(file);
  }

  /** The finished document, ending with a new line. */
  String finish() {
    return Json.write(files, MULTILINE_DEPTH);
  }

  /** Needed file to its sorted, unique version names; a file named by several entries gets their union. */
  static Map<String, SortedSet<String>> versionNeedsByFile(ElfFile elf) {
    Map<String, SortedSet<String>> byFile = new TreeMap<>();
    for (VersionNeed need : elf.versionNeeds()) {
      byFile.computeIfAbsent(need.file(), f -> new TreeSet<>()).addAll(need.versions());
    }
    return byFile;
  }
}
