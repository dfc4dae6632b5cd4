package dev.tewheel.elf.cli;

import dev.tewheel.elf.DynamicFlags;
import dev.tewheel.elf.DynamicSymbol;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ElfHeader;
import dev.tewheel.json.Printable;
import java.util.Collection;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The output for people: one block per file, one fact per line, symbols listed with their versions; every line
 * escaped by the one rule, so a name in the file cannot add a line.
 */
final class TextReport {
  private final StringBuilder out = new StringBuilder();

  private TextReport() {}

  /** The block for one file; {@code first} is false for every file after the first, which gets a blank line. */
  static String of(String path, ElfFile elf, boolean first) {
    TextReport report = new TextReport();
    if (!first) {
      report.out.append('\n');
    }
    report.add(path, elf);
    return report.out.toString();
  }

  private void add(String path, ElfFile elf) {
    ElfHeader h = elf.header();
    emit(path);
    line("format", h.elfClass() + " " + h.data() + ", OS/ABI " + h.osAbi().name());
    line("type", h.type().name());
    line("machine", h.machine().name());
    line("interpreter", elf.interpreter().orElse("-"));
    if (!elf.isDynamic()) {
      line("dynamic", "none (statically linked or not a linked object)");
      return;
    }
    line("soname", elf.soname().orElse("-"));
    line("needed", list(elf.needed()));
    line("rpath", list(elf.rpath()));
    line("runpath", list(elf.runpath()));
    line("flags", list(DynamicFlags.flagNames(elf.flags())));
    line("flags_1", list(DynamicFlags.flags1Names(elf.flags1())));
    line("bind now", elf.bindNow() ? "yes" : "no (lazy binding)");
    line("relro", elf.fullRelro() ? "full (PT_GNU_RELRO and bind now)"
        : elf.relro() ? "partial (PT_GNU_RELRO)" : "none");
    Map<String, SortedSet<String>> needs = JsonReport.versionNeedsByFile(elf);
    if (needs.isEmpty()) {
      line("version needs", "-");
    } else {
      emit("  version needs:");
      needs.forEach((file, versions) -> emit("    " + file + ": " + list(versions)));
    }
    SortedSet<String> defined = new TreeSet<>();
    SortedSet<String> undefined = new TreeSet<>();
    for (DynamicSymbol s : elf.dynamicSymbols()) {
      if (s.name().isEmpty()) {
        continue;
      }
      if (!s.defined()) {
        undefined.add(s.nameWithVersion());
      } else if (s.binding().isExported()) {
        defined.add(s.nameWithVersion());
      }
    }
    symbols("defined symbols", defined);
    symbols("undefined symbols", undefined);
  }

  private void symbols(String label, Collection<String> names) {
    emit("  " + label + " (" + names.size() + ")" + (names.isEmpty() ? "" : ":"));
    for (String name : names) {
      emit("    " + name);
    }
  }

  private void line(String label, String value) {
    emit("  " + label + ":" + " ".repeat(Math.max(1, 15 - label.length())) + value);
  }

  /**
   * Appends one line through the one escaping rule ({@link Printable#line}): a file's SONAME, DT_NEEDED and symbol
   * names are whatever its author wrote, and none may start a line of its own or a command for GitHub's runner.
   */
  private void emit(String line) {
    out.append(Printable.line(line)).append('\n');
  }

  private static String list(Collection<String> values) {
    return values.isEmpty() ? "-" : String.join(" ", values);
  }
}
