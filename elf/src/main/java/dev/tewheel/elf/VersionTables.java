package dev.tewheel.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
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
    Records records = new Records(input);
    Map<Integer, Version> defined = new HashMap<>();
    List<String> definitions = new ArrayList<>();
    if (dynamic.has(DynamicTable.DT_VERDEF)) {
      long at = addresses.offsetOf(dynamic.value(DynamicTable.DT_VERDEF, 0), "DT_VERDEF", input,
          DynamicTable.STRUCTURE, dynamic.offset());
      readDefinitions(input, at, dynamic.value(DynamicTable.DT_VERDEFNUM, -1), strings, records, defined,
          definitions);
    }
    Map<Integer, Version> needed = new HashMap<>();
    List<VersionNeed> needs = new ArrayList<>();
    if (dynamic.has(DynamicTable.DT_VERNEED)) {
      long at = addresses.offsetOf(dynamic.value(DynamicTable.DT_VERNEED, 0), "DT_VERNEED", input,
          DynamicTable.STRUCTURE, dynamic.offset());
      readNeeds(at, dynamic.value(DynamicTable.DT_VERNEEDNUM, -1), strings, records, needed, needs);
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
  private static void readDefinitions(ElfInput input, long at, long declared, StringTable strings, Records records,
      Map<Integer, Version> out, List<String> names) throws IOException {
    for (Records.Chain defs = records.chain(VERDEF, at, declared); defs.hasNext(); ) {
      RawVerdef def = RawVerdef.decode(defs.next(RawVerdef.SIZE));
      defs.requireVersion1("vd_version", def.version());
      // The first Verdaux holds the version's own name; later ones name its parents.
      if (def.count() > 0) {
        RawVerdaux aux = RawVerdaux.decode(input.read(VERDEF, defs.at(def.aux()), RawVerdaux.SIZE));
        String name = strings.at(aux.name());
        names.add(name);
        if ((def.flags() & RawVerdef.VER_FLG_BASE) == 0) {
          out.put(def.index() & 0x7fff, new Version(name, Optional.empty()));
        }
      }
      defs.follow(def.next());
    }
  }

  /** Walks Verneed records and each one's Vernaux chain; {@code declared} is DT_VERNEEDNUM or -1. */
  private static void readNeeds(long at, long declared, StringTable strings, Records records,
      Map<Integer, Version> out, List<VersionNeed> needs) throws IOException {
    for (Records.Chain chain = records.chain(VERNEED, at, declared); chain.hasNext(); ) {
      RawVerneed need = RawVerneed.decode(chain.next(RawVerneed.SIZE));
      chain.requireVersion1("vn_version", need.version());
      String file = strings.at(need.file());
      List<String> versions = new ArrayList<>();
      Set<String> weak = new HashSet<>();
      Set<String> hidden = new HashSet<>();
      for (Records.Chain auxes = records.chain(VERNEED, chain.at(need.aux()), need.count()); auxes.hasNext(); ) {
        RawVernaux aux = RawVernaux.decode(auxes.next(RawVernaux.SIZE));
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

  /**
   * The version records of one file, capped in number across all chains. Each chain links its records by their
   * next field (0 after the last): {@code declared} records (a DT_VER*NUM or an aux count), or to the end when -1.
   * A cursor rather than a callback, so that a cold process links no lambda per parse.
   */
  private static final class Records {
    private final ElfInput input;
    private int count;

    Records(ElfInput input) {
      this.input = input;
    }

    Chain chain(String structure, long at, long declared) {
      return new Chain(structure, at, declared);
    }

    final class Chain {
      private final String structure;
      private final long declared;
      private long offset;
      private long visited;
      private boolean ended;

      private Chain(String structure, long at, long declared) {
        this.structure = structure;
        this.offset = at;
        this.declared = declared;
      }

      boolean hasNext() {
        return !ended && (declared < 0 || visited < declared);
      }

      /** The next record's bytes, counted against the cap. */
      ByteBuffer next(int size) throws IOException {
        if (++count > Limits.MAX_VERSION_ENTRIES) {
          throw input.error(structure, offset, "more than " + Limits.MAX_VERSION_ENTRIES + " version records");
        }
        visited++;
        return input.read(structure, offset, size);
      }

      /** Only version 1 of either record is defined; a record of another would be misread. */
      void requireVersion1(String field, int version) throws ElfFormatException {
        if (version != 1) {
          throw input.error(structure, offset, "unsupported " + field + " " + version);
        }
      }

      /** The file offset {@code delta} bytes after the current record. */
      long at(long delta) throws ElfFormatException {
        return input.add(structure, offset, delta);
      }

      /** Follows the current record's next field. */
      void follow(long next) throws ElfFormatException {
        if (next == 0) {
          ended = true;
        } else {
          offset = at(next);
        }
      }
    }
  }
}
