package dev.tewheel.core.check.deps;

import dev.tewheel.core.check.Libraries;
import dev.tewheel.core.check.LibraryCheck;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.policy.ManylinuxPolicies;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.loader.OwnSearch;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every DT_NEEDED of every shipped library resolves to a shipped file as glibc's dynamic linker resolves it when the
 * library is dlopen'ed on its own from the installed wheel_lib, or is one the user's system or another wheel
 * provides ({@code allowed-needed.txt} plus {@code allowedNeeded}). Where glibc looks inside wheel_lib is
 * {@link OwnSearch}'s rule: its own folder only when a search-path entry names {@code $ORIGIN}.
 */
public final class DependenciesResolveCheck extends LibraryCheck {
  private static final List<Allowed> DEFAULT_ALLOWED = load();

  public DependenciesResolveCheck() {
    super("DEPS-RESOLVE",
        "every DT_NEEDED resolves to a shipped file or to an allowed system or wheel library", Severity.ERROR);
  }

  @Override
  protected void check(Subject subject, SubjectFile library, ElfFile elf, List<Finding> findings) {
    List<Allowed> allowed = allowed(subject);
    String kind = kind(subject, library);
    List<String> folders = OwnSearch.folders(library.path(), elf);
    for (String needed : elf.needed()) {
      boolean shipped = subject.shippedNeeded(library, elf, needed).isPresent();
      boolean permitted = allowed.stream().anyMatch(a -> a.permits(needed, kind));
      if (!shipped && !permitted) {
        findings.add(unresolved(subject, library, elf, needed, folders, kind));
      }
    }
  }

  /** Whether {@code needed} of a library of this kind is one the user's system or another wheel provides. */
  public static boolean permits(Subject subject, String needed, String kind) {
    return allowed(subject).stream().anyMatch(a -> a.permits(needed, kind));
  }

  private static List<Allowed> allowed(Subject subject) {
    List<Allowed> allowed = new ArrayList<>(DEFAULT_ALLOWED);
    subject.settings().allowedNeeded().forEach(p -> allowed.add(new Allowed(p, Set.of())));
    if (subject.layout().any()) {
      // Any wheel may need what the manylinux policies allow (libX11, libGL, libglib, ...): PLATFORM's tag bounds it.
      // The kinds are TE's rules (only NCCL EP may need the driver), so any library may need what the list allows.
      List<Allowed> any = new ArrayList<>();
      allowed.forEach(a -> any.add(new Allowed(a.pattern(), Set.of())));
      ManylinuxPolicies.get().systemLibraries().forEach(p -> any.add(new Allowed(p, Set.of())));
      return any;
    }
    return allowed;
  }

  private Finding unresolved(Subject subject, SubjectFile library, ElfFile elf, String needed, List<String> folders,
      String kind) {
    String searched = folders.isEmpty() ? "its search path names no folder of wheel_lib"
        : "looked in " + String.join(", ", folders.stream().map(f -> f.isEmpty() ? "wheel_lib/" : f + "/").toList());
    String ignored = OwnSearch.rpathIgnored(elf) ? "; its DT_RPATH is ignored, as it has a DT_RUNPATH" : "";
    Optional<String> elsewhere = needed.contains("/") ? Optional.empty() : shippedElsewhere(subject, library, needed);
    if (elsewhere.isPresent()) {
      String entry = "$ORIGIN" + relative(OwnSearch.folderOf(library.path()),
          OwnSearch.folderOf(elsewhere.get()));
      return finding(library.origin(), "DT_NEEDED " + needed + ", shipped as wheel_lib/" + elsewhere.get()
          + " but not on the library's search path (" + searched + ignored + "): glibc searches a library's own"
          + " folder only when a RUNPATH entry names $ORIGIN, so dlopen of " + library.path() + " on its own fails;"
          + " only a process that already loaded " + needed + " by its SONAME would satisfy it",
          "a dependency that the library's RUNPATH finds", "add '" + entry + "' to its RUNPATH: patchelf"
          + " --set-rpath '" + entry + "' " + library.path() + ", or link it with -Wl,-rpath,'" + entry + "'");
    }
    return finding(library.origin(), "DT_NEEDED " + needed + " that is neither shipped (" + searched + ignored
        + ") nor allowed for " + (kind.equals("other") ? "this" : "a " + kind) + " library", "a dependency shipped beside it or provided by the"
        + " system or an nvidia-* wheel", "ship " + needed + " beside " + library.path() + " with '$ORIGIN' in its"
        + " RUNPATH, or add it to allowedNeeded if users' systems or a wheel dependency provide it");
  }

  /** A shipped file named {@code needed} that the search path misses, the one beside the library first. */
  private static Optional<String> shippedElsewhere(Subject subject, SubjectFile library, String needed) {
    String own = OwnSearch.folderOf(library.path());
    if (subject.file(own.isEmpty() ? needed : own + "/" + needed).isPresent()) {
      return Optional.of(own.isEmpty() ? needed : own + "/" + needed);
    }
    return subject.files().stream().map(SubjectFile::path)
        .filter(p -> p.equals(needed) || p.endsWith("/" + needed)).findFirst();
  }

  /** The '/'-prefixed path from folder {@code from} to folder {@code to} inside wheel_lib; "" when they are one. */
  private static String relative(String from, String to) {
    List<String> a = from.isEmpty() ? List.of() : List.of(from.split("/"));
    List<String> b = to.isEmpty() ? List.of() : List.of(to.split("/"));
    int common = 0;
    while (common < a.size() && common < b.size() && a.get(common).equals(b.get(common))) {
      common++;
    }
    StringBuilder out = new StringBuilder();
    for (int i = common; i < a.size(); i++) {
      out.append("/..");
    }
    for (int i = common; i < b.size(); i++) {
      out.append('/').append(b.get(i));
    }
    return out.toString();
  }

  public static String kind(Subject subject, SubjectFile library) {
    if (subject.transformerEngineLibrary().filter(library::equals).isPresent()) {
      return "transformer_engine";
    }
    return subject.ncclEpLibrary().filter(library::equals).isPresent() ? "nccl_ep" : "other";
  }

  private record Allowed(String pattern, Set<String> kinds) {
    public boolean permits(String needed, String kind) {
      return (kinds.isEmpty() || kinds.contains(kind)) && Libraries.globMatches(pattern, needed);
    }
  }

  private static List<Allowed> load() {
    List<Allowed> allowed = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        DependenciesResolveCheck.class.getResourceAsStream("allowed-needed.txt"), StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        String trimmed = line.trim();
        if (trimmed.isEmpty() || trimmed.startsWith("#")) {
          continue;
        }
        String[] words = trimmed.split("\\s+");
        allowed.add(new Allowed(words[0], Set.of(words).stream().filter(w -> !w.equals(words[0]))
            .collect(java.util.stream.Collectors.toSet())));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return List.copyOf(allowed);
  }
}
