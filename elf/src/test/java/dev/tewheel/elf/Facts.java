package dev.tewheel.elf;

import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The facts both this reader and readelf report about a file, in one comparable value.
 *
 * @param definedVersioned defined exported symbols as readelf prints them ({@code name@@VER}, {@code name@VER})
 * @param undefinedVersioned undefined symbols as readelf prints them ({@code name@VER})
 */
record Facts(
    Optional<String> soname, List<String> needed, List<String> rpath, List<String> runpath, boolean bindNow,
    boolean relro, Optional<String> interpreter, SortedSet<String> defined, SortedSet<String> undefined,
    SortedSet<String> definedVersioned, SortedSet<String> undefinedVersioned,
    SortedMap<String, SortedSet<String>> versionNeeds, List<String> versionDefinitions) {

  static Facts of(ElfFile elf) {
    SortedSet<String> definedVersioned = new TreeSet<>();
    SortedSet<String> undefinedVersioned = new TreeSet<>();
    for (DynamicSymbol s : elf.dynamicSymbols()) {
      if (s.name().isEmpty()) {
        continue;
      }
      if (!s.defined()) {
        undefinedVersioned.add(s.nameWithVersion());
      } else if (s.binding().isExported()) {
        definedVersioned.add(s.nameWithVersion());
      }
    }
    SortedMap<String, SortedSet<String>> needs = new TreeMap<>();
    for (VersionNeed need : elf.versionNeeds()) {
      needs.computeIfAbsent(need.file(), f -> new TreeSet<>()).addAll(need.versions());
    }
    return new Facts(elf.soname(), elf.needed(), elf.rpath(), elf.runpath(), elf.bindNow(), elf.relro(),
        elf.interpreter(), new TreeSet<>(elf.definedSymbolNames()), new TreeSet<>(elf.undefinedSymbolNames()),
        definedVersioned, undefinedVersioned, needs, elf.versionDefinitions());
  }

  /**
   * What {@link ElfFile#readWithoutSymbols} must report exactly as {@link ElfFile#read} does: every fact but the
   * symbols, one per line, or "" when all agree.
   */
  static String differencesWithoutSymbols(ElfFile light, ElfFile full) {
    StringBuilder s = new StringBuilder();
    diff(s, "soname", light.soname(), full.soname(), "without symbols", "full");
    diff(s, "needed", light.needed(), full.needed(), "without symbols", "full");
    diff(s, "rpath", light.rpath(), full.rpath(), "without symbols", "full");
    diff(s, "runpath", light.runpath(), full.runpath(), "without symbols", "full");
    diff(s, "bindNow", light.bindNow(), full.bindNow(), "without symbols", "full");
    diff(s, "relro", light.relro(), full.relro(), "without symbols", "full");
    diff(s, "interpreter", light.interpreter(), full.interpreter(), "without symbols", "full");
    diff(s, "machine", light.header().machine(), full.header().machine(), "without symbols", "full");
    diff(s, "version needs", light.versionNeeds(), full.versionNeeds(), "without symbols", "full");
    diff(s, "version definitions", light.versionDefinitions(), full.versionDefinitions(), "without symbols", "full");
    return s.toString();
  }

  /** The fields that differ from {@code other}, one per line, or "" when none do. */
  String differences(Facts other, String thisName, String otherName) {
    StringBuilder s = new StringBuilder();
    diff(s, "soname", soname, other.soname, thisName, otherName);
    diff(s, "needed", needed, other.needed, thisName, otherName);
    diff(s, "rpath", rpath, other.rpath, thisName, otherName);
    diff(s, "runpath", runpath, other.runpath, thisName, otherName);
    diff(s, "bindNow", bindNow, other.bindNow, thisName, otherName);
    diff(s, "relro", relro, other.relro, thisName, otherName);
    diff(s, "interpreter", interpreter, other.interpreter, thisName, otherName);
    setDiff(s, "defined symbols", defined, other.defined, thisName, otherName);
    setDiff(s, "undefined symbols", undefined, other.undefined, thisName, otherName);
    setDiff(s, "defined symbol versions", definedVersioned, other.definedVersioned, thisName, otherName);
    setDiff(s, "undefined symbol versions", undefinedVersioned, other.undefinedVersioned, thisName, otherName);
    diff(s, "version needs", versionNeeds, other.versionNeeds, thisName, otherName);
    diff(s, "version definitions", versionDefinitions, other.versionDefinitions, thisName, otherName);
    return s.toString();
  }

  private static void diff(StringBuilder s, String field, Object a, Object b, String an, String bn) {
    if (!a.equals(b)) {
      s.append("  ").append(field).append(": ").append(an).append(' ').append(a).append(", ").append(bn).append(' ')
          .append(b).append('\n');
    }
  }

  private static void setDiff(StringBuilder s, String field, SortedSet<String> a, SortedSet<String> b, String an,
      String bn) {
    if (a.equals(b)) {
      return;
    }
    SortedSet<String> onlyA = new TreeSet<>(a);
    onlyA.removeAll(b);
    SortedSet<String> onlyB = new TreeSet<>(b);
    onlyB.removeAll(a);
    s.append("  ").append(field).append(": only ").append(an).append(' ').append(first(onlyA)).append(", only ")
        .append(bn).append(' ').append(first(onlyB)).append('\n');
  }

  private static String first(SortedSet<String> set) {
    List<String> some = set.stream().limit(5).toList();
    return set.size() > 5 ? some + " and " + (set.size() - 5) + " more" : some.toString();
  }
}
