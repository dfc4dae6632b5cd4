package dev.tewheel.elf;

import java.util.List;
import java.util.Optional;

/** What the dynamic section and its tables said, decoded; {@link #NONE} for a file without one. */
record DynamicFacts(
    boolean present, Optional<String> soname, List<String> needed, List<String> rpath, List<String> runpath,
    long flags, long flags1, boolean bindNowTag, boolean symbolsRead, SymbolTable symbols,
    List<String> versionDefinitions, List<VersionNeed> versionNeeds) {

  static final DynamicFacts NONE = new DynamicFacts(false, Optional.empty(), List.of(), List.of(), List.of(), 0, 0,
      false, true, SymbolTable.EMPTY, List.of(), List.of());

  DynamicFacts {
    needed = List.copyOf(needed);
    rpath = List.copyOf(rpath);
    runpath = List.copyOf(runpath);
    versionDefinitions = List.copyOf(versionDefinitions);
    versionNeeds = List.copyOf(versionNeeds);
  }
}
