package dev.tewheel.elf.cli;

import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.VersionNeed;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/** The {@code --json} output: one array, one object per file; the schema is in docs/elf.md. */
final class JsonReport {
  private final JsonWriter json = new JsonWriter().beginArray(true);

  void add(String path, ElfFile elf) {
    json.beginObject(true)
        .name("path").value(path)
        .name("class").value(elf.header().elfClass().bits())
        .name("data").value(elf.header().data().name())
        .name("machine").value(elf.header().machine().name())
        .name("type").value(elf.header().type().name())
        .name("soname").value(elf.soname().orElse(null))
        .name("needed").strings(elf.needed())
        .name("rpath").strings(elf.rpath())
        .name("runpath").strings(elf.runpath())
        .name("bindNow").value(elf.bindNow())
        .name("relro").value(elf.relro())
        .name("definedSymbols").strings(elf.definedSymbolNames())
        .name("undefinedSymbols").strings(elf.undefinedSymbolNames())
        .name("versionNeeds").beginObject(false);
    for (Map.Entry<String, SortedSet<String>> need : versionNeedsByFile(elf).entrySet()) {
      json.name(need.getKey()).strings(need.getValue());
    }
    json.endObject().endObject();
  }

  void addError(String path, String message) {
    json.beginObject(true).name("path").value(path).name("error").value(message).endObject();
  }

  /** The finished document, ending with a new line. */
  String finish() {
    return json.endArray() + "\n";
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
