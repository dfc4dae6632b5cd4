package dev.tewheel.core.check;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.elf.ElfFile;
import java.util.Optional;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Every DT_NEEDED of every shipped library resolves, as ld.so would from the library's own folder and its
 * $ORIGIN-relative RUNPATH, to a shipped file, or is one the user's system or another wheel provides
 * ({@code allowed-needed.txt} plus {@code allowedNeeded}).
 */
final class DependenciesResolveCheck extends BaseCheck {
  private static final List<Allowed> DEFAULT_ALLOWED = load();

  DependenciesResolveCheck() {
    super("DEPS-RESOLVE",
        "every DT_NEEDED resolves to a shipped file or to an allowed system or wheel library", Severity.ERROR);
  }

  @Override
  public List<Finding> run(Subject subject) {
    List<Allowed> allowed = new ArrayList<>(DEFAULT_ALLOWED);
    subject.settings().allowedNeeded().forEach(p -> allowed.add(new Allowed(p, Set.of())));
    List<Finding> findings = new ArrayList<>();
    for (SubjectFile library : Libraries.of(subject)) {
      Optional<ElfFile> read = subject.readableElf(library, this, findings);
      if (read.isEmpty()) {
        continue;
      }
      ElfFile elf = read.get();
      String kind = kind(subject, library);
      List<String> folders = folders(library.path(), elf);
      for (String needed : elf.needed()) {
        boolean shipped = folders.stream().anyMatch(f -> subject.file(f.isEmpty() ? needed : f + "/" + needed)
            .isPresent());
        boolean permitted = allowed.stream().anyMatch(a -> a.permits(needed, kind));
        if (!shipped && !permitted) {
          findings.add(finding(library.origin(), "DT_NEEDED " + needed + " that is neither shipped (looked in "
              + String.join(", ", folders.stream().map(f -> f.isEmpty() ? "wheel_lib/" : f + "/").toList())
              + ") nor allowed for a " + kind + " library", "a dependency shipped beside it or provided by the"
              + " system or an nvidia-* wheel", "ship " + needed + " beside " + library.path()
              + ", or add it to allowedNeeded if users' systems or a wheel dependency provide it"));
        }
      }
    }
    return findings;
  }

  /** The library's folder and its $ORIGIN-relative search path, as paths inside wheel_lib. */
  private static List<String> folders(String path, ElfFile elf) {
    String own = path.contains("/") ? path.substring(0, path.lastIndexOf('/')) : "";
    List<String> folders = new ArrayList<>(List.of(own));
    List<String> entries = new ArrayList<>(elf.runpath());
    entries.addAll(elf.rpath());
    for (String entry : entries) {
      Optional<String> rest = WheelLibPaths.originRelative(entry);
      if (rest.isEmpty()) {
        continue; // TE-RUNPATH-ORIGIN reports absolute entries
      }
      String folder = WheelLibPaths.normalize(own + "/" + rest.get());
      if (folder != null && !folders.contains(folder)) {
        folders.add(folder);
      }
    }
    return folders;
  }

  static String kind(Subject subject, SubjectFile library) {
    if (subject.transformerEngineLibrary().filter(library::equals).isPresent()) {
      return "transformer_engine";
    }
    return subject.ncclEpLibrary().filter(library::equals).isPresent() ? "nccl_ep" : "other";
  }

  private record Allowed(String pattern, Set<String> kinds) {
    boolean permits(String needed, String kind) {
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
