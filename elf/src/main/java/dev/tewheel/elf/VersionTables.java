package dev.tewheel.elf;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * DT_VERDEF and DT_VERNEED decoded: the version names behind DT_VERSYM's indexes, and the needs per file.
 *
 * <p>Both are lists of records chained by offsets relative to each record. The offsets are unsigned, so a chain can
 * only move forward and cannot cycle; the counts it declares can still be huge (2^32), so the records read are
 * capped at {@link Limits#MAX_VERSION_ENTRIES}, more than DT_VERSYM's 15-bit indexes can name.
 */
final class VersionTables {
  private static final String VERDEF = "version definitions (DT_VERDEF)";
  private static final String VERNEED = "version needs (DT_VERNEED)";

  /** A version reachable from DT_VERSYM. */
  record Version(String name, Optional<String> neededFrom) {}

  private final Map<Integer, Version> defined;
  private final List<String> definitions;
  private final Map<Integer, Version> needed;
  private final List<VersionNeed> needs;

  private VersionTables(Map<Integer, Version> defined, List<String> definitions, Map<Integer, Version> needed,
      List<VersionNeed> needs) {
    this.defined = defined;
    this.definitions = definitions;
    this.needed = needed;
    this.needs = needs;
  }

  static VersionTables read(ElfInput input, DynamicTable dynamic, AddressMap addresses, StringTable strings)
      throws IOException {
    Counter counter = new Counter(input);
    Map<Integer, Version> defined = new HashMap<>();
    List<String> definitions = new ArrayList<>();
    if (dynamic.has(DynamicTable.DT_VERDEF)) {
      long at = addresses.offsetOf(dynamic.value(DynamicTable.DT_VERDEF, 0), "DT_VERDEF", input,
          DynamicTable.STRUCTURE, dynamic.offset());
      readDefinitions(input, at, dynamic.value(DynamicTable.DT_VERDEFNUM, -1), strings, counter, defined,
          definitions);
    }
    Map<Integer, Version> needed = new HashMap<>();
    List<VersionNeed> needs = new ArrayList<>();
    if (dynamic.has(DynamicTable.DT_VERNEED)) {
      long at = addresses.offsetOf(dynamic.value(DynamicTable.DT_VERNEED, 0), "DT_VERNEED", input,
          DynamicTable.STRUCTURE, dynamic.offset());
      readNeeds(input, at, dynamic.value(DynamicTable.DT_VERNEEDNUM, -1), strings, counter, needed, needs);
    }
    return new VersionTables(Map.copyOf(defined), List.copyOf(definitions), Map.copyOf(needed), List.copyOf(needs));
  }

  /** An empty set of tables, for a file without versions. */
  static VersionTables none() {
    return new VersionTables(Map.of(), List.of(), Map.of(), List.of());
  }

  List<VersionNeed> needs() {
    return needs;
  }

  /** Every name DT_VERDEF defines, in file order, the base version (the file's own name) included. */
  List<String> definitions() {
    return definitions;
  }

  /**
   * The version a DT_VERSYM index names. Index 0 (local) and 1 (global, unversioned) name none. A defined symbol
   * looks in the definitions first, an undefined one in the needs first, as readelf does.
   */
  Optional<Version> lookup(int index, boolean definedSymbol) {
    if (index <= 1) {
      return Optional.empty();
    }
    Version first = (definedSymbol ? defined : needed).get(index);
    return Optional.ofNullable(first != null ? first : (definedSymbol ? needed : defined).get(index));
  }

  /** Walks Verdef records; {@code declared} is DT_VERDEFNUM, or -1 to follow vd_next to its end. */
  private static void readDefinitions(ElfInput input, long at, long declared, StringTable strings, Counter counter,
      Map<Integer, Version> out, List<String> names) throws IOException {
    for (Chain chain = new Chain(VERDEF, input, at, declared, counter); chain.hasNext(); ) {
      long offset = chain.next();
      RawVerdef def = RawVerdef.decode(input.read(VERDEF, offset, RawVerdef.SIZE));
      requireVersion1(input, VERDEF, offset, "vd_version", def.version());
      // The first Verdaux holds the version's own name; later ones name its parents.
      if (def.count() > 0) {
        long auxAt = input.add(VERDEF, offset, def.aux());
        RawVerdaux aux = RawVerdaux.decode(input.read(VERDEF, auxAt, RawVerdaux.SIZE));
        String name = strings.at(aux.name());
        names.add(name);
        if ((def.flags() & RawVerdef.VER_FLG_BASE) == 0) {
          out.put(def.index() & 0x7fff, new Version(name, Optional.empty()));
        }
      }
      chain.follow(def.next());
    }
  }

  /** Walks Verneed records and each one's Vernaux chain; {@code declared} is DT_VERNEEDNUM or -1. */
  private static void readNeeds(ElfInput input, long at, long declared, StringTable strings, Counter counter,
      Map<Integer, Version> out, List<VersionNeed> needs) throws IOException {
    for (Chain chain = new Chain(VERNEED, input, at, declared, counter); chain.hasNext(); ) {
      long offset = chain.next();
      RawVerneed need = RawVerneed.decode(input.read(VERNEED, offset, RawVerneed.SIZE));
      requireVersion1(input, VERNEED, offset, "vn_version", need.version());
      String file = strings.at(need.file());
      List<String> versions = new ArrayList<>();
      Set<String> weak = new HashSet<>();
      Set<String> hidden = new HashSet<>();
      for (Chain auxes = new Chain(VERNEED, input, input.add(VERNEED, offset, need.aux()), need.count(), counter);
          auxes.hasNext(); ) {
        long auxAt = auxes.next();
        RawVernaux aux = RawVernaux.decode(input.read(VERNEED, auxAt, RawVernaux.SIZE));
        String name = strings.at(aux.name());
        versions.add(name);
        if ((aux.flags() & VersionNeed.VER_FLG_WEAK) != 0) {
          weak.add(name);
        }
        if ((aux.other() & DynamicSymbol.VERSYM_HIDDEN) != 0) {
          hidden.add(name);
        }
        out.put(aux.other() & 0x7fff, new Version(name, Optional.of(file)));
        auxes.follow(aux.next());
      }
      needs.add(new VersionNeed(file, versions, weak, hidden));
      chain.follow(need.next());
    }
  }

  /** Only version 1 of either record is defined; a record of another would be misread. */
  private static void requireVersion1(ElfInput input, String structure, long offset, String field, int version)
      throws ElfFormatException {
    if (version != 1) {
      throw input.error(structure, offset, "unsupported " + field + " " + version);
    }
  }

  /**
   * A chain of version records, each linked to the next by its next field (0 after the last), every one counted
   * against the cap: {@code declared} records (a DT_VER*NUM or an aux count), or to the end when -1. A cursor rather
   * than a callback, so that a cold process links no lambda per parse.
   */
  private static final class Chain {
    private final String structure;
    private final ElfInput input;
    private final long declared;
    private final Counter counter;
    private long offset;
    private long visited;
    private boolean ended;

    Chain(String structure, ElfInput input, long at, long declared, Counter counter) {
      this.structure = structure;
      this.input = input;
      this.offset = at;
      this.declared = declared;
      this.counter = counter;
    }

    boolean hasNext() {
      return !ended && (declared < 0 || visited < declared);
    }

    /** The offset of the next record, counted against the cap. */
    long next() throws ElfFormatException {
      counter.visit(structure, offset);
      visited++;
      return offset;
    }

    /** Follows the record's next field. */
    void follow(long next) throws ElfFormatException {
      if (next == 0) {
        ended = true;
      } else {
        offset = input.add(structure, offset, next);
      }
    }
  }

  /** Caps the records read. */
  private static final class Counter {
    private final ElfInput input;
    private int count;

    Counter(ElfInput input) {
      this.input = input;
    }

    void visit(String structure, long offset) throws ElfFormatException {
      if (++count > Limits.MAX_VERSION_ENTRIES) {
        throw input.error(structure, offset, "more than " + Limits.MAX_VERSION_ENTRIES + " version records");
      }
    }
  }
}
