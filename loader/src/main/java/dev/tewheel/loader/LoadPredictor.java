package dev.tewheel.loader;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.elf.DynamicSymbol;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.SymbolScope;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Predicts, before dlopen, whether every symbol a library imports would bind (docs/runtime.md, "The load
 * prediction"). The lookup scope is what glibc searches: the global scope first (the executable and the libraries
 * it needs, then what te-runtime opens with RTLD_GLOBAL before this one), then the library and its DT_NEEDED
 * closure breadth first, each name bound to the file {@link LoaderSearch} finds (a copy already mapped, a
 * preload, else the loader's search). Which versions are missing and which imports stay unbound is elf's
 * {@link SymbolScope}, the rule the SYMBOL-FLOOR release check applies too, with this process's glibc's rules.
 *
 * <p>Symbol tables are read through {@link ElfFiles}, and the unbound imports are remembered per library while the
 * library and every member of its scope stay the same files ({@link FileStamp}): a warm report only walks the
 * search and compares stamps.
 */
public final class LoadPredictor {
  private static final Map<Path, Memo> MEMO = new ConcurrentHashMap<>();
  private static final Map<Path, List<Member>> EXECUTABLE_SCOPE = new ConcurrentHashMap<>();

  private LoadPredictor() {}

  /** A member of the scope: its name there, its file (empty when not found), its stamp when it has one. */
  private record Member(String name, Optional<Path> file, FileStamp stamp) {
    // Written out: a record's generated equals would bootstrap (ObjectMethods) on te-runtime's cold path.
    @Override
    public boolean equals(Object other) {
      return other instanceof Member that && name.equals(that.name) && file.equals(that.file)
          && Objects.equals(stamp, that.stamp);
    }

    @Override
    public int hashCode() {
      return (name.hashCode() * 31 + file.hashCode()) * 31 + Objects.hashCode(stamp);
    }
  }

  /** An unbound import, and the libraries it was needed from (its DT_VERNEED file, or the likely one). */
  private record Unresolved(SymbolScope.Unbound unbound, List<String> neededFrom) {}

  /**
   * The missing versions and unbound imports of one library for one scope of files, and the members that could not
   * be read.
   */
  private record Memo(FileStamp library, List<Member> members, List<SymbolScope.MissingVersion> missingVersions,
      List<Unresolved> unbound, List<String> unchecked) {}

  /**
   * The prediction for one library.
   *
   * @param name its SONAME, else its file name
   * @param library the file
   * @param bindNow whether every symbol binds at load (RTLD_NOW, or its own BIND_NOW flag)
   * @param unresolved the imports that would stay unbound, as people read them
   * @param missingVersions the versions asked that the scope does not define, {@code VERSION (file)}
   * @param unchecked the members of the scope that could not be read
   * @param detail what fails and the fix; empty when everything binds
   */
  public record Prediction(String name, Path library, boolean bindNow, List<String> unresolved,
      List<String> missingVersions, List<String> unchecked, String detail) {
    public Prediction {
      unresolved = List.copyOf(unresolved);
      missingVersions = List.copyOf(missingVersions);
      unchecked = List.copyOf(unchecked);
    }
  }

  /** The host's glibc's rules where glibc's releases differ. */
  private static SymbolScope.Glibc glibc(Host host) {
    return host.glibcAtLeast(2, 41) ? SymbolScope.Glibc.SINCE_2_41 : SymbolScope.Glibc.BEFORE_2_41;
  }

  /**
   * The prediction for opening {@code library} now on {@code host}.
   *
   * @param library the file that would be opened
   * @param openedNow whether te-runtime opens it with RTLD_NOW (then every symbol binds at load whatever its flags)
   * @param preloads names te-runtime loads before it, with their files (libnccl.so.2 after the NCCL gate, ...)
   * @param global files te-runtime opens with RTLD_GLOBAL before it (TE's native world), in that order
   * @param labels a name for people of some files ({@code NCCL 2.21.5}), shown beside the file in the detail
   * @return empty when the library itself cannot be read as ELF (the load check says why elsewhere)
   */
  public static Optional<Prediction> predict(Host host, Path library, boolean openedNow,
      Map<String, Path> preloads, List<Path> global, Map<Path, String> labels) {
    ElfFile elf;
    FileStamp stamp;
    try {
      stamp = FileStamp.of(library);
      elf = ElfFiles.readWithoutSymbols(library);
    } catch (IOException e) {
      return Optional.empty();
    }
    List<Member> members = new ArrayList<>(executableScope(host));
    for (Path file : global) {
      member(members, file.getFileName().toString(), Optional.of(file));
    }
    for (Binding d : LoaderSearch.closure(host, library, elf, preloads)) {
      member(members, d.name(), d.file());
    }
    Memo memo = MEMO.get(library.toAbsolutePath().normalize());
    if (memo == null || !memo.library().equals(stamp) || !memo.members().equals(members)) {
      ElfFile withSymbols;
      try {
        withSymbols = ElfFiles.read(library);
      } catch (IOException e) {
        return Optional.empty();
      }
      List<SymbolScope.Member> scope = new ArrayList<>(members.size());
      for (Member m : members) {
        scope.add(read(m));
      }
      SymbolScope.Verdict verdict = SymbolScope.of(scope, glibc(host)).judge(withSymbols);
      List<Unresolved> unbound = new ArrayList<>();
      for (SymbolScope.Unbound u : verdict.unbound()) {
        if (!verdict.ofMissingVersion(u)) { // the missing version accounts for it
          unbound.add(new Unresolved(u, neededFrom(u, elf, scope)));
        }
      }
      Set<String> unchecked = new LinkedHashSet<>();
      for (SymbolScope.Member m : scope) {
        if (m.elf().isEmpty()) {
          unchecked.add(m.name());
        }
      }
      memo = new Memo(stamp, List.copyOf(members), verdict.missingVersions(), List.copyOf(unbound),
          List.copyOf(unchecked));
      MEMO.put(library.toAbsolutePath().normalize(), memo);
    }
    String name = elf.soname().orElse(library.getFileName().toString());
    boolean bindNow = openedNow || elf.bindNow();
    List<String> unresolved = new ArrayList<>();
    Map<List<String>, List<SymbolScope.Unbound>> byFrom = new LinkedHashMap<>();
    Map<String, List<String>> aborting = new LinkedHashMap<>();
    for (Unresolved u : memo.unbound()) {
      if (u.unbound().unknown().isEmpty()) {
        unresolved.add(u.unbound().describe());
        if (u.unbound().abortsAt().isPresent()) {
          aborting.computeIfAbsent(u.unbound().abortsAt().get(), k -> new ArrayList<>()).add(u.unbound().describe());
        } else {
          byFrom.computeIfAbsent(u.neededFrom(), k -> new ArrayList<>()).add(u.unbound());
        }
      }
    }
    List<String> missing = new ArrayList<>();
    for (SymbolScope.MissingVersion m : memo.missingVersions()) {
      missing.add(m.version() + " (" + m.file() + ")");
    }
    return Optional.of(new Prediction(name, library, bindNow, unresolved, missing, memo.unchecked(),
        detail(name, bindNow, memo.missingVersions(), byFrom, aborting, members, labels)));
  }

  /**
   * Where an unbound import was needed from: a versioned one names its file (DT_VERNEED). An unversioned one names
   * none: the library's own DT_NEEDED that have the name in a form glibc does not bind (hidden, local, a hidden
   * version, …); else, of the library's own DT_NEEDED without version definitions, the one whose own symbols share
   * the longest prefix with it ({@code ncclTeamLsa}: libnccl.so.2, not libcuda.so.1), else all of them.
   */
  private static List<String> neededFrom(SymbolScope.Unbound u, ElfFile elf, List<SymbolScope.Member> scope) {
    List<String> refusing = u.refused().stream().map(SymbolScope.Refusal::member).filter(elf.needed()::contains)
        .distinct().toList();
    if (u.symbol().version().isEmpty() && !refusing.isEmpty()) {
      return refusing; // it has the name, in a form glibc does not bind
    }
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

  private static String detail(String name, boolean bindNow, List<SymbolScope.MissingVersion> missingVersions,
      Map<List<String>, List<SymbolScope.Unbound>> byFrom, Map<String, List<String>> aborting, List<Member> members,
      Map<Path, String> labels) {
    if (missingVersions.isEmpty() && byFrom.isEmpty() && aborting.isEmpty()) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    List<String> from = new ArrayList<>();
    for (SymbolScope.MissingVersion m : missingVersions) {
      from.add(m.file());
      Optional<Path> file = fileOf(m.file(), members);
      List<String> symbols = m.symbols();
      parts.add("version " + m.version() + " (needed from " + m.file() + (symbols.isEmpty() ? "" : " by "
          + String.join(", ", symbols.subList(0, Math.min(5, symbols.size())))
          + (symbols.size() > 5 ? " and " + (symbols.size() - 5) + " more" : "")) + ") is not defined by "
          + file.map(f -> describe(f, labels)).orElse(m.file()) + " (its versions: " + String.join(", ", m.defined())
          + "), so glibc refuses the load before binding any symbol (version `" + m.version() + "' not found)");
    }
    for (Map.Entry<List<String>, List<SymbolScope.Unbound>> e : byFrom.entrySet()) {
      List<String> symbols = e.getValue().stream().map(SymbolScope.Unbound::describe).sorted().toList();
      List<String> files = new ArrayList<>();
      for (String needed : e.getKey()) {
        from.add(needed);
        fileOf(needed, members).ifPresent(f -> files.add(describe(f, labels)));
      }
      // What glibc saw of the name and did not bind (hidden visibility, a hidden version, LOCAL binding, …).
      List<String> refused = e.getValue().stream().flatMap(u -> u.refused().stream())
          .filter(r -> e.getKey().contains(r.member()) && r.definition().defined())
          .map(r -> fileOf(r.member(), members).map(f -> describe(f, labels)).orElse(r.member()) + " has "
              + r.definition().nameWithVersion() + ", which " + r.reason()).distinct().toList();
      parts.add(String.join(", ", symbols) + (e.getKey().isEmpty() ? "" : " (needed from "
          + String.join(" or ", e.getKey()) + ")") + (symbols.size() == 1 ? " is" : " are") + " not defined by "
          + (files.isEmpty() ? "any library it would bind to" : String.join(" or ", files))
          + (refused.isEmpty() ? "" : " (glibc binds none of what it has: " + String.join("; ", refused) + ")"));
    }
    for (Map.Entry<String, List<String>> e : aborting.entrySet()) {
      from.add(e.getKey());
      parts.add(String.join(", ", e.getValue()) + " (needed from " + e.getKey() + "): "
          + fileOf(e.getKey(), members).map(f -> describe(f, labels)).orElse(e.getKey()) + " has no symbol"
          + " versioning at all, and this glibc (before 2.41) aborts the process binding a versioned import to the"
          + " file its version need names (an assertion in dl-lookup.c)");
    }
    String what = String.join("; ", parts);
    int count = missingVersions.size() + byFrom.values().stream().mapToInt(List::size).sum()
        + aborting.values().stream().mapToInt(List::size).sum();
    String them = count == 1 ? "it" : "them";
    List<String> libraries = from.stream().distinct().toList();
    String fix = ". Use " + (libraries.isEmpty() ? "libraries that define " + them
        : "a " + String.join(" or ", libraries) + " that defines " + them + " (a newer release)") + ", or a " + name
        + " built against " + (libraries.size() > 1 ? "the ones" : "the one") + " found";
    return bindNow || !missingVersions.isEmpty() ? name + " would not load: " + what + fix
        : name + " is lazily bound, so it loads, but the first call of a function named here ends the process: "
            + what + fix;
  }

  /** The file of the scope's member {@code name}. */
  private static Optional<Path> fileOf(String name, List<Member> members) {
    for (Member m : members) {
      if (m.name().equals(name) && m.file().isPresent()) {
        return m.file();
      }
    }
    return Optional.empty();
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

  /** The executable and the libraries it needs: mapped before anything else, so read once per executable. */
  private static List<Member> executableScope(Host host) {
    if (host.executable().isEmpty()) {
      return List.of();
    }
    Host.Executable exe = host.executable().get();
    Path key = exe.file().toAbsolutePath().normalize();
    List<Member> scope = EXECUTABLE_SCOPE.get(key);
    if (scope == null) {
      List<Member> members = new ArrayList<>();
      member(members, exe.file().getFileName().toString(), Optional.of(exe.file()));
      for (Binding d : LoaderSearch.closure(host, exe.file(), exe.elf(), Map.of())) {
        member(members, d.name(), d.file());
      }
      scope = List.copyOf(members);
      List<Member> raced = EXECUTABLE_SCOPE.putIfAbsent(key, scope);
      scope = raced == null ? scope : raced;
    }
    return scope;
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
      return SymbolScope.Member.of(m.name(), ElfFiles.read(m.file().get()));
    } catch (IOException e) {
      return SymbolScope.Member.unknown(m.name());
    }
  }
}
