package dev.tewheel.core.wheel;

import dev.tewheel.elf.ElfFile;
import java.util.List;

/** What ElfFile reads, as one comparable value: equal for the same bytes, whatever the source's name. */
public record ElfFacts(List<Object> facts) {
  public static ElfFacts of(ElfFile elf) {
    return new ElfFacts(List.of(elf.header(), elf.programHeaders(), elf.sectionHeaders(), elf.interpreter(),
        elf.isDynamic(), elf.soname(), elf.needed(), elf.rpath(), elf.runpath(), elf.flags(), elf.flags1(),
        elf.bindNow(), elf.dynamicSymbols(), elf.versionNeeds(), elf.definedSymbolNames(),
        elf.undefinedSymbolNames()));
  }
}
