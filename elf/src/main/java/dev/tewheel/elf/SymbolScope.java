package dev.tewheel.elf;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What glibc's dynamic linker does with one object's version needs and imports in a lookup scope, decided from ELF
 * facts alone: a pure function (no file is read here), so the SYMBOL-FLOOR release check and te-runtime's load
 * prediction ask the same rule and agree by construction.
 *
 * <p>Versions first, as elf/dl-version.c ({@code _dl_check_map_versions}, {@code match_symbol}) checks them before
 * any symbol is bound: every version of a DT_VERNEED entry must be among the DT_VERDEF names (the base one
 * included) of the member that entry names, unless that member has no DT_VERDEF at all or the version is marked
 * VER_FLG_WEAK; otherwise dlopen fails with {@code version `V' not found (required by …)}.
 *
 * <p>Then each import, as elf/dl-lookup.c ({@code do_lookup_x}, {@code check_match}) looks it up: the members in
 * order, in each the entries of that name in table order. An entry is a candidate when it is defined (an undefined
 * entry is not in the GNU hash table), its value is not 0 unless it is SHN_ABS or TLS, and its type is NOTYPE,
 * OBJECT, FUNC, COMMON, TLS or GNU_IFUNC. A reference {@code name@V} takes a candidate of version V, or one whose
 * index names no version (0, 1 or an unused index) unless the candidate or the need is marked hidden; in a member
 * without any version table it takes any candidate. An unversioned reference takes a candidate of index 0 to 2
 * (index 2 even when hidden), else the only non-hidden candidate of a higher index. The candidate found is then
 * skipped with the rest of its member when its visibility is HIDDEN or INTERNAL or its binding is not GLOBAL, WEAK
 * or GNU_UNIQUE; otherwise the import binds there. A weak import that binds nowhere is left at 0, never an error;
 * a strong one is {@code undefined symbol: NAME[, version V]}. An import whose own binding is LOCAL or whose
 * visibility is HIDDEN or INTERNAL binds to its object without a lookup.
 *
 * <p>One case depends on the glibc ({@link Glibc}): a versioned import reaching a candidate in the very member its
 * DT_VERNEED names, when that member has no version table at all, fails an assertion of glibc before 2.41 and the
 * process aborts; 2.41 and later bind it.
 *
 * <p>Not modelled: version hashes that do not match their names (no linker writes them); an undefined entry with a
 * non-zero value, which only an executable's canonical PLT entry has and which binds only non-PLT relocations; the
 * chain order of a SysV-only hash table (symbol-table order is assumed, as the GNU hash table has it).
 */
public final class SymbolScope {
  private static final Set<SymbolType> BINDABLE = Set.of(SymbolType.NOTYPE, SymbolType.OBJECT, SymbolType.FUNC,
      SymbolType.COMMON, SymbolType.TLS, SymbolType.GNU_IFUNC);

  /** The glibc whose rules apply where they differ. */
  public enum Glibc {
    /** glibc 2.40 and older: a versioned import reaching its own needed file without a version table aborts. */
    BEFORE_2_41,
    /** glibc 2.41 and later: that import binds. */
    SINCE_2_41;

    /** The rules of glibc {@code major.minor}. */
    public static Glibc of(int major, int minor) {
      return major > 2 || (major == 2 && minor >= 41) ? SINCE_2_41 : BEFORE_2_41;
    }
  }

  /**
   * One object of the scope.
   *
   * @param name how the scope knows it: the DT_NEEDED name (a SONAME) or the file name
   * @param elf its facts read with the symbol table; empty when it could not be read (then nothing is known of what
   *     it defines)
   */
  public record Member(String name, Optional<ElfFile> elf) {
    public Member {
      if (elf.isPresent() && !elf.get().hasDynamicSymbols()) {
        throw new IllegalArgumentException(name + " was read without its dynamic symbol table");
      }
    }

    /** A member whose symbols are known. */
    public static Member of(String name, ElfFile elf) {
      return new Member(name, Optional.of(elf));
    }

    /** A member that could not be read. */
    public static Member unknown(String name) {
      return new Member(name, Optional.empty());
    }

    /** Whether glibc's name match ({@code _dl_name_match_p}) takes this member for {@code file}. */
    boolean answersTo(String file) {
      return name.equals(file) || elf.isPresent() && file.equals(elf.get().soname().orElse(null));
    }
  }

  /**
   * A version the object needs that the member its DT_VERNEED entry names does not define: dlopen fails with
   * {@code version `VERSION' not found (required by OBJECT)} before any symbol is bound.
   *
   * @param version the version needed
   * @param file the DT_VERNEED file, which is the member that decides (its name in the scope)
   * @param defined that member's DT_VERDEF names, in file order (the base one first)
   * @param symbols the object's imports of that version from that file, in symbol-table order
   */
  public record MissingVersion(String version, String file, List<String> defined, List<String> symbols) {
    public MissingVersion {
      defined = List.copyOf(defined);
      symbols = List.copyOf(symbols);
    }
  }

  /**
   * An import and the definition it binds to.
   *
   * @param reference the import as the object has it
   * @param member the member that defines it (the one that decides)
   * @param definition the entry bound
   */
  public record Bound(DynamicSymbol reference, String member, DynamicSymbol definition) {}

  /**
   * An entry of the wanted name that glibc looked at and did not bind.
   *
   * @param member the member holding it
   * @param definition the entry
   * @param reason why, in a few words: {@code has HIDDEN visibility}, {@code is version V2, not V1}, …
   */
  public record Refusal(String member, DynamicSymbol definition, String reason) {
    /** {@code member: name@VER reason}. */
    public String describe() {
      return member + " has " + definition.nameWithVersion() + ", which " + reason;
    }
  }

  /**
   * A strong import that no readable member binds, or an import (weak ones too) whose lookup aborts the process.
   *
   * @param symbol the import as the object has it
   * @param expectedFrom where it was linked from: for a versioned import its DT_VERNEED file, whether or not the
   *     scope holds it; for an unversioned one the members without version definitions, where the static linker
   *     leaves references unversioned (NCCL's libnccl.so.2 is one; the CUDA libraries and glibc's version every
   *     symbol). A hint for messages only: glibc looks in every member
   * @param unknown the members that could not be read and so might still define it, in scope order
   * @param refused the entries of that name glibc looked at and did not bind, in lookup order
   * @param abortsAt the member at which glibc before 2.41 aborts the process (see {@link Glibc}); empty when the
   *     import is simply not defined
   */
  public record Unbound(DynamicSymbol symbol, List<String> expectedFrom, List<String> unknown,
      List<Refusal> refused, Optional<String> abortsAt) {
    public Unbound {
      expectedFrom = List.copyOf(expectedFrom);
      unknown = List.copyOf(unknown);
      refused = List.copyOf(refused);
    }

    /** {@code name} or {@code name@VER}, as glibc's message and nm print it. */
    public String describe() {
      Optional<SymbolVersion> v = symbol.version();
      return v.isPresent() ? symbol.name() + "@" + v.get().name() : symbol.name();
    }
  }

  /**
   * What glibc does with one object in this scope.
   *
   * @param missingVersions the versions it needs that their member does not define (dlopen fails on the first)
   * @param bound every import that binds, strong or weak, with the member that decides
   * @param unbound the strong imports no readable member binds (those of a missing version included) and the
   *     imports whose lookup aborts, in symbol-table order
   */
  public record Verdict(List<MissingVersion> missingVersions, List<Bound> bound, List<Unbound> unbound) {
    public Verdict {
      missingVersions = List.copyOf(missingVersions);
      bound = List.copyOf(bound);
      unbound = List.copyOf(unbound);
    }

    /** Whether an unbound import is one of a missing version, which that version's failure already accounts for. */
    public boolean ofMissingVersion(Unbound u) {
      Optional<SymbolVersion> v = u.symbol().version();
      if (v.isPresent()) {
        for (MissingVersion m : missingVersions) {
          if (m.version().equals(v.get().name()) && m.file().equals(v.get().neededFrom().orElse(null))) {
            return true;
          }
        }
      }
      return false;
    }
  }

  private final List<Member> members;
  private final Glibc glibc;

  private SymbolScope(List<Member> members, Glibc glibc) {
    this.members = List.copyOf(members);
    this.glibc = glibc;
  }

  /**
   * A scope of {@code members} in lookup order (the global scope, then the needing object's DT_NEEDED closure
   * breadth first, as ld.so searches), judged by {@code glibc}'s rules.
   */
  public static SymbolScope of(List<Member> members, Glibc glibc) {
    return new SymbolScope(members, glibc);
  }

  public List<Member> members() {
    return members;
  }

  /**
   * The versions of {@code need} that {@code provider} lacks, by dl-version.c's {@code match_symbol}: none when it
   * has no DT_VERDEF at all; else each version that is neither among its DT_VERDEF names (the base one included)
   * nor marked weak. te-runtime's loader search asks this for every object it would load.
   */
  public static List<String> missingVersions(VersionNeed need, ElfFile provider) {
    List<String> defined = provider.versionDefinitions();
    if (defined.isEmpty()) {
      return List.of();
    }
    List<String> missing = new ArrayList<>();
    for (String v : need.versions()) {
      if (!defined.contains(v) && !need.weak().contains(v) && !missing.contains(v)) {
        missing.add(v);
      }
    }
    return List.copyOf(missing);
  }

  /** What glibc does with {@code object}'s version needs and imports in this scope. */
  public Verdict judge(ElfFile object) {
    List<MissingVersion> missing = new ArrayList<>();
    for (VersionNeed need : object.versionNeeds()) {
      Optional<Member> provider = provider(need.file());
      if (provider.isEmpty() || provider.get().elf().isEmpty()) {
        continue; // not in the scope, or unreadable: nothing to judge by
      }
      ElfFile elf = provider.get().elf().get();
      for (String version : missingVersions(need, elf)) {
        List<String> symbols = new ArrayList<>();
        for (DynamicSymbol s : object.dynamicSymbols()) {
          Optional<SymbolVersion> v = s.version();
          if (!s.defined() && v.isPresent() && v.get().name().equals(version)
              && need.file().equals(v.get().neededFrom().orElse(null))) {
            symbols.add(s.name());
          }
        }
        missing.add(new MissingVersion(version, need.file(), elf.versionDefinitions(), symbols));
      }
    }
    List<String> unknown = new ArrayList<>();
    List<String> unversioned = new ArrayList<>();
    for (Member m : members) {
      if (m.elf().isEmpty()) {
        unknown.add(m.name());
      } else if (m.elf().get().versionDefinitions().isEmpty()) {
        unversioned.add(m.name());
      }
    }
    List<Bound> bound = new ArrayList<>();
    List<Unbound> unbound = new ArrayList<>();
    for (DynamicSymbol ref : object.dynamicSymbols()) {
      if (ref.defined() || ref.name().isEmpty() || !ref.binding().isExported()
          || ref.visibility() == SymbolVisibility.HIDDEN || ref.visibility() == SymbolVisibility.INTERNAL) {
        continue; // defined here, or bound to this object without a lookup (dl-reloc.c's resolve_map)
      }
      Lookup found = lookup(ref, object);
      if (found.bound() != null) {
        bound.add(found.bound());
      } else if (!ref.binding().equals(SymbolBinding.WEAK) || found.abortsAt() != null) {
        String from = ref.version().isPresent() ? ref.version().get().neededFrom().orElse(null) : null;
        List<String> expected = from != null ? List.of(from) : unversioned;
        unbound.add(new Unbound(ref, expected, unknown, found.refused(), Optional.ofNullable(found.abortsAt())));
      }
    }
    return new Verdict(missing, bound, unbound);
  }

  /** The strong imports of {@code object} that no readable member binds ({@link #judge}'s unbound). */
  public List<Unbound> unbound(ElfFile object) {
    return judge(object).unbound();
  }

  /** The result of one lookup: bound, or refused everywhere (and perhaps aborted). */
  private record Lookup(Bound bound, List<Refusal> refused, String abortsAt) {}

  /** The version a reference asks for: glibc's {@code r_found_version} of the needing object. */
  private record Wanted(String name, boolean hidden, Optional<String> file) {}

  /** do_lookup_x over the members in order. */
  private Lookup lookup(DynamicSymbol ref, ElfFile object) {
    Wanted wanted = wanted(ref, object);
    List<Refusal> refused = new ArrayList<>();
    for (Member member : members) {
      if (member.elf().isEmpty()) {
        continue;
      }
      List<DynamicSymbol> named = member.elf().get().dynamicSymbolsNamed(ref.name());
      if (named.isEmpty()) {
        continue;
      }
      boolean versioned = hasVersionTable(member.elf().get());
      DynamicSymbol found = null;
      DynamicSymbol onlyVersion = null;
      int versions = 0;
      for (DynamicSymbol def : named) {
        String refusal = checkMatch(def, wanted, versioned);
        if (refusal != null) {
          refused.add(new Refusal(member.name(), def, refusal));
          continue;
        }
        if (wanted != null && !versioned && wanted.file().isPresent() && member.answersTo(wanted.file().get())
            && glibc == Glibc.BEFORE_2_41) {
          return new Lookup(null, refused, member.name()); // check_match's assertion
        }
        if (wanted == null && versioned && def.versionIndex() >= 3) {
          if (def.versymHidden()) {
            refused.add(new Refusal(member.name(), def, "is a hidden version above index 2, which an unversioned"
                + " reference does not bind"));
          } else if (versions++ == 0) {
            onlyVersion = def;
          }
          continue;
        }
        found = def;
        break;
      }
      if (found == null && versions == 1) {
        found = onlyVersion;
      } else if (found == null && versions > 1) {
        refused.add(new Refusal(member.name(), onlyVersion, "is one of " + versions + " default versions above"
            + " index 2, none of which an unversioned reference binds"));
      }
      if (found == null) {
        continue;
      }
      if (found.visibility() == SymbolVisibility.HIDDEN || found.visibility() == SymbolVisibility.INTERNAL) {
        refused.add(new Refusal(member.name(), found, "has " + found.visibility() + " visibility, local to "
            + member.name()));
        continue;
      }
      SymbolBinding binding = found.binding();
      if (binding.equals(SymbolBinding.GLOBAL) || binding.equals(SymbolBinding.WEAK)
          || binding.equals(SymbolBinding.GNU_UNIQUE)) {
        return new Lookup(new Bound(ref, member.name(), found), refused, null);
      }
      refused.add(new Refusal(member.name(), found, "has " + binding + " binding, which glibc skips"));
    }
    return new Lookup(null, refused, null);
  }

  /** check_match: null when {@code def} is a match, else why not. */
  private static String checkMatch(DynamicSymbol def, Wanted wanted, boolean versioned) {
    if (!def.defined()) {
      return "is undefined there";
    }
    if (def.value() == 0 && def.sectionIndex() != DynamicSymbol.SHN_ABS && !def.type().equals(SymbolType.TLS)) {
      return "has value 0, which glibc takes for no definition";
    }
    if (!BINDABLE.contains(def.type())) {
      return "is of type " + def.type() + ", which glibc never binds";
    }
    if (wanted == null || !versioned) {
      return null;
    }
    // glibc compares the names behind the indexes, whichever table (DT_VERDEF, else DT_VERNEED) names them.
    Optional<SymbolVersion> version = def.version();
    if (version.isPresent() && version.get().name().equals(wanted.name())) {
      return null;
    }
    if (version.isPresent()) {
      return "is version " + version.get().name() + ", not " + wanted.name();
    }
    if (wanted.hidden()) {
      return "has no version, and " + wanted.name() + " is needed hidden: only a definition of " + wanted.name()
          + " binds it";
    }
    if (def.versymHidden()) {
      return "has no version but is marked hidden, so it binds no version";
    }
    return null;
  }

  /** The first member glibc's find_needed takes for {@code file}. */
  private Optional<Member> provider(String file) {
    for (Member m : members) {
      if (m.answersTo(file)) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  /** The version {@code ref} asks for, hidden when the needing object's DT_VERNEED marks it so; null for none. */
  private static Wanted wanted(DynamicSymbol ref, ElfFile object) {
    if (ref.version().isEmpty()) {
      return null;
    }
    SymbolVersion v = ref.version().get();
    boolean hidden = false;
    for (VersionNeed need : object.versionNeeds()) {
      if (need.file().equals(v.neededFrom().orElse(null)) && need.hidden().contains(v.name())) {
        hidden = true;
      }
    }
    return new Wanted(v.name(), hidden, v.neededFrom());
  }

  /**
   * Whether glibc sets up a version table for the object ({@code l_versyms}): only when it has version
   * definitions or needs.
   */
  private static boolean hasVersionTable(ElfFile elf) {
    return !elf.versionDefinitions().isEmpty() || !elf.versionNeeds().isEmpty();
  }
}
