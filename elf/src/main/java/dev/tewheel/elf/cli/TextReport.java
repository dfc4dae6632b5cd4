package dev.tewheel.elf.cli;

import dev.tewheel.elf.DynamicFlags;
import dev.tewheel.elf.DynamicSymbol;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ElfHeader;
import java.util.Collection;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/** The output for people: one block per file, one fact per line, symbols listed with their versions. */
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
    out.append(path).append('\n');
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
      out.append("  version needs:\n");
      needs.forEach((file, versions) -> out.append("    ").append(file).append(": ").append(list(versions))
          .append('\n'));
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
    out.append("  ").append(label).append(" (").append(names.size()).append(")").append(names.isEmpty() ? "\n" : ":\n");
    for (String name : names) {
      out.append("    ").append(name).append('\n');
    }
  }

  private void line(String label, String value) {
    out.append("  ").append(label).append(':').append(" ".repeat(Math.max(1, 15 - label.length()))).append(value)
        .append('\n');
  }

  private static String list(Collection<String> values) {
    return values.isEmpty() ? "-" : String.join(" ", values);
  }
}
