package dev.tewheel.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.standins.FloorSpace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * SymbolScope against glibc on the generated space of floors ({@link FloorSpace}): every combination of binding,
 * visibility, section, type and version of a floor's entry, imported in every reference kind, with and without a
 * fallback behind the floor. For each case SymbolScope's verdict, as SYMBOL-FLOOR and te-runtime's prediction read it
 * (a missing version first, then the first unbound import, else where each import binds), must be what the forked
 * {@code dlopen(RTLD_NOW)} did: the same dlerror, the same abort, or the import's word pointing into the member
 * SymbolScope says binds it.
 */
@Timeout(300)
class SymbolScopeGlibcSpaceTest {
  private static FloorSpace space;
  private static final Map<Path, ElfFile> READ = new HashMap<>();

  @BeforeAll
  static void build() throws Exception {
    space = FloorSpace.shared();
  }

  static ElfFile read(Path file) {
    return READ.computeIfAbsent(file, f -> {
      try {
        return ElfFile.read(f);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  /**
   * What glibc must have done by SymbolScope's verdict, in {@link FloorSpace.Outcome}'s words. Exact strings where
   * glibc's message is fixed; an abort is matched by its assertion.
   */
  static String expected(FloorSpace.Case c, SymbolScope.Verdict verdict) {
    if (!verdict.missingVersions().isEmpty()) {
      SymbolScope.MissingVersion m = verdict.missingVersions().get(0);
      return "fail " + c.floor() + ": version `" + m.version() + "' not found (required by " + c.referencing() + ")";
    }
    if (!verdict.unbound().isEmpty()) {
      SymbolScope.Unbound u = verdict.unbound().get(0);
      if (u.abortsAt().isPresent()) {
        return "exit 127 Inconsistency detected by ld.so: dl-lookup.c: <line>: check_match: Assertion"
            + " `version->filename == NULL || ! _dl_name_match_p (version->filename, map)' failed!";
      }
      return "fail " + c.referencing() + ": undefined symbol: " + u.symbol().name()
          + u.symbol().version().map(v -> ", version " + v.name()).orElse("");
    }
    Optional<SymbolScope.Bound> bound = verdict.bound().stream().filter(b -> b.reference().name().equals(c.symbol()))
        .findFirst();
    if (bound.isEmpty()) {
      return "ok 0"; // a weak import left unbound
    }
    DynamicSymbol def = bound.get().definition();
    if (def.sectionIndex() == DynamicSymbol.SHN_ABS) {
      if (def.type().equals(SymbolType.GNU_IFUNC)) {
        return "signal 11"; // glibc calls the resolver at its address, absolute 0
      }
      return def.value() == 0 ? "ok 0" : "ok abs:" + Long.toHexString(def.value());
    }
    return "ok " + (bound.get().member().equals(FloorSpace.FLOOR) ? c.floor() : c.fallback());
  }

  /** The scope glibc searches after the global one: the referencing library's two DT_NEEDED, in order. */
  static List<SymbolScope.Member> members(FloorSpace.Case c) {
    return List.of(SymbolScope.Member.of(FloorSpace.FLOOR, read(c.floor())),
        SymbolScope.Member.of(FloorSpace.FALLBACK, read(c.fallback())));
  }

  static String said(FloorSpace.Outcome glibc) {
    return glibc.toString().replaceFirst("dl-lookup\\.c: \\d+: ", "dl-lookup.c: <line>: ");
  }

  @Test
  void everyGeneratedFloorAndImportIsJudgedAsGlibcsDlopenJudgesIt() {
    SymbolScope.Glibc glibc = SymbolScopeTest.hostGlibc();
    List<String> wrong = new ArrayList<>();
    Set<String> kinds = new TreeSet<>();
    for (FloorSpace.Case c : space.cases()) {
      SymbolScope.Verdict verdict = SymbolScope.of(members(c), glibc).judge(read(c.referencing()));
      String expected = expected(c, verdict);
      String said = said(c.glibc());
      kinds.add(c.glibc().kind());
      if (!expected.equals(said)) {
        wrong.add(c + "\n    glibc:       " + said + "\n    SymbolScope: " + expected);
      }
    }
    assertEquals(List.of(), wrong.subList(0, Math.min(20, wrong.size())), wrong.size() + " of "
        + space.cases().size() + " cases differ from glibc " + space.glibc());
    assertTrue(space.cases().size() > 10_000, "the space is generated, not listed: " + space.cases().size());
    assertTrue(kinds.containsAll(List.of("ok", "fail")), kinds.toString());
    if (glibc == SymbolScope.Glibc.BEFORE_2_41) {
      assertTrue(kinds.contains("exit 127"), "glibc " + space.glibc() + " aborts on a versioned import of a floor"
          + " without a version table: " + kinds);
    }
  }

  @Test
  void everyFloorEntryIsExactlyItsCombinationAsElfReadsIt() {
    Map<String, Integer> edited = new HashMap<>();
    for (FloorSpace.Case c : space.cases()) {
      if (c.reference() != FloorSpace.Reference.UNVERSIONED || c.withFallback()) {
        continue;
      }
      FloorSpace.Definition d = c.definition();
      DynamicSymbol entry = read(c.floor()).dynamicSymbols().stream().filter(s -> s.name().equals(c.symbol()))
          .findFirst().orElseThrow(() -> new AssertionError("no " + c.symbol() + " in " + c.floor()));
      String found = entry.binding() + " " + entry.visibility() + " " + section(read(c.floor()), entry) + " "
          + entry.type() + " "
          + entry.versym();
      String wanted = binding(d.binding()) + " " + d.visibility() + " " + d.section() + " " + type(d.type()) + " "
          + versym(d);
      assertEquals(wanted, found, c.toString());
      c.edited().keySet().forEach(field -> edited.merge(field, 1, Integer::sum));
    }
    // What the toolchain cannot write is edited in, and only that (the build checks the rest).
    assertEquals(Set.of("binding", "visibility", "type", "versym"), edited.keySet(), edited.toString());
  }

  @Test
  void eachDefectOfIssue31IsAmongTheCasesAndGlibcRefusesIt() {
    // A HIDDEN or INTERNAL floor definition does not define the symbol.
    assertOutcome(new FloorSpace.Definition(FloorSpace.Binding.GLOBAL, FloorSpace.Visibility.HIDDEN,
        FloorSpace.Section.DEFINED, FloorSpace.Type.FUNC, FloorSpace.Version.NONE), FloorSpace.Reference.UNVERSIONED,
        "fail", "undefined symbol: ");
    assertOutcome(new FloorSpace.Definition(FloorSpace.Binding.GLOBAL, FloorSpace.Visibility.INTERNAL,
        FloorSpace.Section.DEFINED, FloorSpace.Type.OBJECT, FloorSpace.Version.INDEX_2), FloorSpace.Reference.VERSIONED,
        "fail", "undefined symbol: ");
    // name@V1 against a floor without the node V1: the version is missing before any symbol.
    assertOutcome(new FloorSpace.Definition(FloorSpace.Binding.GLOBAL, FloorSpace.Visibility.DEFAULT,
        FloorSpace.Section.DEFINED, FloorSpace.Type.FUNC, FloorSpace.Version.MISSING_NODE),
        FloorSpace.Reference.VERSIONED, "fail", "version `V1' not found");
    // An unversioned import whose only definition is a hidden version above index 2.
    assertOutcome(new FloorSpace.Definition(FloorSpace.Binding.GLOBAL, FloorSpace.Visibility.DEFAULT,
        FloorSpace.Section.DEFINED, FloorSpace.Type.FUNC, FloorSpace.Version.HIDDEN_3),
        FloorSpace.Reference.UNVERSIONED, "fail", "undefined symbol: ");
    // An SHN_ABS definition of value 0 binds.
    assertOutcome(new FloorSpace.Definition(FloorSpace.Binding.GLOBAL, FloorSpace.Visibility.DEFAULT,
        FloorSpace.Section.ABS, FloorSpace.Type.OBJECT, FloorSpace.Version.NONE), FloorSpace.Reference.UNVERSIONED,
        "ok", "0");
  }

  private static void assertOutcome(FloorSpace.Definition d, FloorSpace.Reference reference, String kind,
      String detail) {
    FloorSpace.Case c = space.cases().stream().filter(x -> x.definition().equals(d) && x.reference() == reference
        && !x.withFallback()).findFirst().orElseThrow(() -> new AssertionError(d + " was not generated"));
    assertEquals(kind, c.glibc().kind(), c + ": " + c.glibc());
    assertTrue(c.glibc().detail().contains(detail), c + ": " + c.glibc());
  }

  /** The linker allocates a common symbol in .bss or .tbss (no file bytes); a defined one has bytes. */
  private static String section(ElfFile elf, DynamicSymbol s) {
    if (s.sectionIndex() == DynamicSymbol.SHN_UNDEF) {
      return "UNDEF";
    }
    if (s.sectionIndex() == DynamicSymbol.SHN_ABS) {
      return "ABS";
    }
    return elf.sectionHeaders().get(s.sectionIndex()).type() == SectionHeader.SHT_NOBITS ? "COMMON" : "DEFINED";
  }

  private static String binding(FloorSpace.Binding b) {
    return b.name();
  }

  private static String type(FloorSpace.Type t) {
    return t == FloorSpace.Type.IFUNC ? "GNU_IFUNC" : t.name();
  }

  private static int versym(FloorSpace.Definition d) {
    return switch (d.version()) {
      case NONE -> DynamicSymbol.NO_VERSYM;
      case BASE, MISSING_NODE -> 1;
      case INDEX_2 -> 2;
      case HIDDEN_2 -> 0x8002;
      case INDEX_3 -> 3;
      case HIDDEN_3 -> 0x8003;
    };
  }
}
