package dev.tewheel.elf;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The objects an ELF object's undefined symbols are looked up in, in lookup order, and which of those symbols none
 * of them defines: what glibc's dynamic linker reports as {@code undefined symbol: NAME, version VER} (at load time
 * for a BIND_NOW object, at the first call for a lazy one). The SYMBOL-FLOOR check and te-runtime's load prediction
 * both ask this class, so the gate and the loader agree by construction.
 *
 * <p>The matching follows glibc's elf/dl-lookup.c ({@code check_match}): a definition counts when it is defined
 * (st_shndx not SHN_UNDEF, and a non-zero value unless it is TLS), GLOBAL, WEAK or GNU_UNIQUE, of type NOTYPE,
 * OBJECT, FUNC, COMMON, TLS or GNU_IFUNC. A reference {@code name@VER} binds to a definition of version VER, or to an
 * unversioned one (an object without DT_VERSYM, or the base or global index); an unversioned reference binds to an
 * unversioned definition or to one of a default (not hidden) version. Weak references may stay unbound and are never
 * reported.
 *
 * <p>Where a missing symbol was expected: a versioned reference names its file (DT_VERNEED); an unversioned one is
 * what the linker records for a definition that carries no version, so it was expected from the members without
 * version definitions (NCCL's libnccl.so.2 is one; the CUDA libraries and glibc's version every symbol).
 */
public final class SymbolScope {
  private static final Set<SymbolType> BINDABLE = Set.of(SymbolType.NOTYPE, SymbolType.OBJECT, SymbolType.FUNC,
      SymbolType.COMMON, SymbolType.TLS, SymbolType.GNU_IFUNC);

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
  }

  /**
   * A strong undefined reference that no readable member defines.
   *
   * @param symbol the reference as the needing object has it
   * @param expectedFrom the members it was expected from (see the class comment), in scope order; for a versioned
   *     reference its DT_VERNEED file, whether or not the scope holds it
   * @param unknown the members that could not be read and so might still define it, in scope order
   */
  public record Unbound(DynamicSymbol symbol, List<String> expectedFrom, List<String> unknown) {
    /** {@code name} or {@code name@VER}, as glibc's message and nm print it. */
    public String describe() {
      return symbol.version().map(v -> symbol.name() + "@" + v.name()).orElse(symbol.name());
    }
  }

  private final List<Member> members;
  private final List<Map<String, List<DynamicSymbol>>> definitions;

  private SymbolScope(List<Member> members) {
    this.members = List.copyOf(members);
    List<Map<String, List<DynamicSymbol>>> defs = new ArrayList<>(members.size());
    for (Member m : this.members) {
      defs.add(m.elf().map(SymbolScope::index).orElse(Map.of()));
    }
    this.definitions = defs;
  }

  /** A scope of {@code members} in lookup order (the needing object's DT_NEEDED breadth first, as ld.so loads). */
  public static SymbolScope of(List<Member> members) {
    return new SymbolScope(members);
  }

  public List<Member> members() {
    return members;
  }

  /**
   * The strong undefined references of {@code object} that no readable member defines, in symbol-table order. A
   * reference that may still bind to an unreadable member is listed too, with that member in
   * {@link Unbound#unknown()}; the caller decides what an unknown means.
   */
  public List<Unbound> unbound(ElfFile object) {
    List<Unbound> out = new ArrayList<>();
    List<String> unknown = members.stream().filter(m -> m.elf().isEmpty()).map(Member::name).toList();
    List<String> unversioned = members.stream()
        .filter(m -> m.elf().isPresent() && m.elf().get().versionDefinitions().isEmpty()).map(Member::name).toList();
    for (DynamicSymbol ref : object.dynamicSymbols()) {
      if (ref.defined() || ref.name().isEmpty() || !ref.binding().equals(SymbolBinding.GLOBAL)) {
        continue; // weak references may stay unbound; local ones are never looked up
      }
      if (!bound(ref)) {
        List<String> expected = ref.version().flatMap(SymbolVersion::neededFrom).map(List::of).orElse(unversioned);
        out.add(new Unbound(ref, expected, unknown));
      }
    }
    return List.copyOf(out);
  }

  private boolean bound(DynamicSymbol ref) {
    for (Map<String, List<DynamicSymbol>> defs : definitions) {
      for (DynamicSymbol def : defs.getOrDefault(ref.name(), List.of())) {
        if (matches(ref.version(), def)) {
          return true;
        }
      }
    }
    return false;
  }

  /** dl-lookup.c's check_match for a definition already known to be bindable. */
  private static boolean matches(Optional<SymbolVersion> wanted, DynamicSymbol def) {
    if (def.version().isEmpty()) {
      return true; // no DT_VERSYM, or the local/global index: matches any reference
    }
    SymbolVersion has = def.version().get();
    return wanted.map(w -> w.name().equals(has.name())).orElse(!has.hidden());
  }

  /** The bindable definitions of an object by name. */
  private static Map<String, List<DynamicSymbol>> index(ElfFile elf) {
    Map<String, List<DynamicSymbol>> byName = new HashMap<>();
    for (DynamicSymbol s : elf.dynamicSymbols()) {
      if (s.defined() && s.binding().isExported() && BINDABLE.contains(s.type())
          && (s.value() != 0 || s.type().equals(SymbolType.TLS))) {
        byName.computeIfAbsent(s.name(), k -> new ArrayList<>(1)).add(s);
      }
    }
    return byName;
  }
}
