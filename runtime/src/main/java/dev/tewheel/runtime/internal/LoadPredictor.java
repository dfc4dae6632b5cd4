package dev.tewheel.runtime.internal;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.elf.DynamicSymbol;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.SymbolScope;
import dev.tewheel.loader.FileStamp;
import dev.tewheel.runtime.Dependency;
import dev.tewheel.runtime.LoadPrediction;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Predicts, before dlopen, whether every symbol a library imports would bind (docs/runtime.md, "The load
 * prediction"). The lookup scope is what glibc searches: the global scope first (the executable and the libraries
 * it needs, then what te-runtime opens with RTLD_GLOBAL before this one), then the library and its DT_NEEDED
 * closure breadth first, each name bound to the file {@link LoaderSearch} finds (a copy already mapped, a
 * preload, else the loader's search). Which imports stay unbound is elf's {@link SymbolScope}, the rule the
 * SYMBOL-FLOOR release check applies too.
 *
 * <p>Symbol tables are read through {@link ElfCache}, and the unbound imports are remembered per library while the
 * library and every member of its scope stay the same files ({@link FileStamp}): a warm report only walks the
 * search and compares stamps.
 */
public final class LoadPredictor {
  private static final Map<Path, Memo> MEMO = new ConcurrentHashMap<>();
  private static volatile List<Member> executableScope;

  private LoadPredictor() {}

  /** A member of the scope: its name there, its file (empty when not found), its stamp when it has one. */
  private record Member(String name, Optional<Path> file, FileStamp stamp) {}

  /** An unbound import, and the libraries it was needed from (its DT_VERNEED file, or the likely one). */
  private record Unresolved(SymbolScope.Unbound unbound, List<String> neededFrom) {}

  /** The unbound imports of one library for one scope of files, and the members that could not be read. */
  private record Memo(FileStamp library, List<Member> members, List<Unresolved> unbound, List<String> unchecked) {}

  /**
   * The prediction for opening {@code library} now.
   *
   * @param library the file that would be opened
   * @param openedNow whether te-runtime opens it with RTLD_NOW (then every symbol binds at load whatever its flags)
   * @param preloads names te-runtime loads before it, with their files (libnccl.so.2 after the NCCL gate, ...)
   * @param global files te-runtime opens with RTLD_GLOBAL before it (TE's native world), in that order
   * @param labels a name for people of some files ({@code NCCL 2.21.5}), shown beside the file in the detail
   * @return empty when the library itself cannot be read as ELF (the load check says why elsewhere)
   */
  public static Optional<LoadPrediction> predict(Path library, boolean openedNow, Map<String, Path> preloads,
      List<Path> global, Map<Path, String> labels) {
    ElfFile elf;
    FileStamp stamp;
    try {
      stamp = FileStamp.of(library);
      elf = ElfCache.readWithoutSymbols(library);
    } catch (IOException e) {
      return Optional.empty();
    }
    List<Member> members = new ArrayList<>(executableScope());
    for (Path file : global) {
      member(members, file.getFileName().toString(), Optional.of(file));
    }
    for (Dependency d : LoaderSearch.closure(library, elf, preloads)) {
      member(members, d.name(), d.file());
    }
    Memo memo = MEMO.get(library.toAbsolutePath().normalize());
    if (memo == null || !memo.library().equals(stamp) || !memo.members().equals(members)) {
      ElfFile withSymbols;
      try {
        withSymbols = ElfCache.read(library);
      } catch (IOException e) {
        return Optional.empty();
      }
      List<SymbolScope.Member> scope = new ArrayList<>(members.size());
      for (Member m : members) {
        scope.add(read(m));
      }
      List<Unresolved> unbound = new ArrayList<>();
      for (SymbolScope.Unbound u : SymbolScope.of(scope).unbound(withSymbols)) {
        unbound.add(new Unresolved(u, neededFrom(u, elf, scope)));
      }
      List<String> unchecked = scope.stream().filter(m -> m.elf().isEmpty()).map(SymbolScope.Member::name)
          .distinct().toList();
      memo = new Memo(stamp, List.copyOf(members), List.copyOf(unbound), unchecked);
      MEMO.put(library.toAbsolutePath().normalize(), memo);
    }
    String name = elf.soname().orElse(library.getFileName().toString());
    boolean bindNow = openedNow || elf.bindNow();
    List<String> unresolved = new ArrayList<>();
    Map<List<String>, List<String>> byFrom = new LinkedHashMap<>();
    for (Unresolved u : memo.unbound()) {
      if (u.unbound().unknown().isEmpty()) {
        unresolved.add(u.unbound().describe());
        byFrom.computeIfAbsent(u.neededFrom(), k -> new ArrayList<>()).add(u.unbound().describe());
      }
    }
    return Optional.of(Reports.make().loadPrediction(name, library, bindNow, unresolved, memo.unchecked(),
        detail(name, bindNow, byFrom, members, labels)));
  }

  /**
   * Where an unbound import was needed from: a versioned one names its file (DT_VERNEED). An unversioned one names
   * none; of the library's own DT_NEEDED without version definitions, the one whose own symbols share the longest
   * prefix with it ({@code ncclTeamLsa}: libnccl.so.2, not libcuda.so.1), else all of them.
   */
  private static List<String> neededFrom(SymbolScope.Unbound u, ElfFile elf, List<SymbolScope.Member> scope) {
    List<String> direct = u.expectedFrom().stream().filter(elf.needed()::contains).distinct().toList();
    List<String> candidates = direct.isEmpty() ? u.expectedFrom().stream().distinct().toList() : direct;
    if (candidates.size() <= 1 || u.symbol().version().isPresent()) {
      return candidates;
    }
    String best = null;
    int longest = 0;
    boolean tie = false;
    for (SymbolScope.Member m : scope) {
      if (!candidates.contains(m.name()) || m.elf().isEmpty()) {
        continue;
      }
      int prefix = 0;
      for (DynamicSymbol defined : m.elf().get().dynamicSymbols()) {
        if (defined.defined()) {
          prefix = Math.max(prefix, commonPrefix(defined.name(), u.symbol().name()));
        }
      }
      if (prefix > longest) {
        best = m.name();
        longest = prefix;
        tie = false;
      } else if (prefix == longest) {
        tie = true;
      }
    }
    return best != null && !tie && longest >= 3 ? List.of(best) : candidates;
  }

  private static int commonPrefix(String a, String b) {
    int n = Math.min(a.length(), b.length());
    int i = 0;
    while (i < n && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    return i;
  }

  private static String detail(String name, boolean bindNow, Map<List<String>, List<String>> byFrom,
      List<Member> members, Map<Path, String> labels) {
    if (byFrom.isEmpty()) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    List<String> from = new ArrayList<>();
    for (Map.Entry<List<String>, List<String>> e : byFrom.entrySet()) {
      List<String> symbols = e.getValue().stream().sorted().toList();
      List<String> files = new ArrayList<>();
      for (String needed : e.getKey()) {
        from.add(needed);
        members.stream().filter(m -> m.name().equals(needed) && m.file().isPresent()).findFirst()
            .ifPresent(m -> files.add(describe(m.file().get(), labels)));
      }
      parts.add(String.join(", ", symbols) + (e.getKey().isEmpty() ? "" : " (needed from "
          + String.join(" or ", e.getKey()) + ")") + (symbols.size() == 1 ? " is" : " are") + " not defined by "
          + (files.isEmpty() ? "any library it would bind to" : String.join(" or ", files)));
    }
    String what = String.join("; ", parts);
    String them = byFrom.values().stream().mapToInt(List::size).sum() == 1 ? "it" : "them";
    List<String> libraries = from.stream().distinct().toList();
    String fix = ". Use " + (libraries.isEmpty() ? "libraries that define " + them
        : "a " + String.join(" or ", libraries) + " that defines " + them + " (a newer release)") + ", or a " + name
        + " built against " + (libraries.size() > 1 ? "the ones" : "the one") + " found";
    return bindNow ? name + " would not load: " + what + fix
        : name + " is lazily bound, so it loads, but the first call of a function named here ends the process: "
            + what + fix;
  }

  /** A file as the detail names it: the file a link leads to, and its label if it has one. */
  private static String describe(Path file, Map<Path, String> labels) {
    String label = null;
    for (Map.Entry<Path, String> e : labels.entrySet()) {
      if (WheelLibPaths.sameFile(e.getKey(), file)) {
        label = e.getValue();
      }
    }
    Path shown;
    try {
      shown = file.toRealPath();
    } catch (IOException e) {
      shown = file;
    }
    return shown + (label == null ? "" : " (" + label + ")");
  }

  /** The executable and the libraries it needs: mapped before anything else, so read once per process. */
  private static List<Member> executableScope() {
    List<Member> known = executableScope;
    if (known == null) {
      List<Member> members = new ArrayList<>();
      Optional<LinkerHost.Executable> exe = LinkerHost.executable();
      if (exe.isPresent()) {
        member(members, exe.get().file().getFileName().toString(), Optional.of(exe.get().file()));
        for (Dependency d : LoaderSearch.closure(exe.get().file(), exe.get().elf(), Map.of())) {
          member(members, d.name(), d.file());
        }
      }
      known = List.copyOf(members);
      executableScope = known;
    }
    return known;
  }

  /** Adds a member unless its file is one already there (an object is in a scope once). */
  private static void member(List<Member> members, String name, Optional<Path> file) {
    FileStamp stamp = null;
    if (file.isPresent()) {
      try {
        stamp = FileStamp.of(file.get());
      } catch (IOException e) {
        stamp = null;
      }
    }
    for (Member m : members) {
      if (stamp != null && stamp.equals(m.stamp())) {
        return;
      }
    }
    members.add(new Member(name, file, stamp));
  }

  private static SymbolScope.Member read(Member m) {
    if (m.file().isEmpty() || m.stamp() == null) {
      return SymbolScope.Member.unknown(m.name());
    }
    try {
      return SymbolScope.Member.of(m.name(), ElfCache.read(m.file().get()));
    } catch (IOException e) {
      return SymbolScope.Member.unknown(m.name());
    }
  }
}
