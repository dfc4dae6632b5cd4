package dev.tewheel.runtime.internal.host;

import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ElfMachine;
import dev.tewheel.loader.Binding;
import dev.tewheel.loader.LoadPredictor;
import dev.tewheel.loader.LoaderSearch;
import dev.tewheel.loader.UnnamedFolders;
import dev.tewheel.runtime.report.Dependency;
import dev.tewheel.runtime.report.LoadPrediction;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The loader model ({@link LoaderSearch}, {@link LoadPredictor}) asked about this process ({@link LinkerHost}), its
 * answers made into te-runtime's report records. Nothing here decides where a name binds.
 */
public final class LiveLoader {
  private LiveLoader() {}

  /** {@link LoaderSearch#needed} in this process. */
  public static List<Dependency> needed(Path library, ElfFile elf, Map<String, Path> preloads) {
    return dependencies(LoaderSearch.needed(LinkerHost.host(), library, elf, preloads));
  }

  /** {@link LoaderSearch#closure} in this process. */
  public static List<Dependency> closure(Path library, ElfFile elf, Map<String, Path> preloads) {
    return dependencies(LoaderSearch.closure(LinkerHost.host(), library, elf, preloads));
  }

  /**
   * Where te-runtime itself takes {@code name} from when it is to load it: {@link LoaderSearch#byName}'s search in
   * this process, but a folder that an empty or relative entry names is skipped ({@link UnnamedFolders}), although
   * glibc's dlopen would search it. Empty when none is found.
   *
   * @param skipped receives, for each skipped entry that holds a usable {@code name}, the sentence saying so
   */
  public static Optional<Dependency> byNameInNamedFolders(String name, ElfMachine machine, List<String> skipped) {
    List<LoaderSearch.Skipped> passed = new ArrayList<>();
    Optional<Binding> found = LoaderSearch.byNameIn(LinkerHost.host(), name, machine, UnnamedFolders::named, passed);
    for (LoaderSearch.Skipped s : passed) {
      skipped.add(UnnamedFolders.describe(s.step().toString(), s.folder()) + " holds " + s.file()
          + ", which glibc's search would take; te-runtime loads nothing from a folder not named by an absolute path");
    }
    return found.isPresent() ? Optional.of(dependency(found.get())) : Optional.empty();
  }

  /** {@link LoadPredictor#predict} in this process, as te-runtime's report. */
  public static Optional<LoadPrediction> predict(Path library, boolean openedNow, Map<String, Path> preloads,
      List<Path> global, Map<Path, String> labels) {
    return LoadPredictor.predict(LinkerHost.host(), library, openedNow, preloads, global, labels)
        .map(p -> new LoadPrediction(p.name(), p.library(), p.bindNow(), p.unresolved(),
            p.missingVersions(), p.unchecked(), p.detail()));
  }

  private static List<Dependency> dependencies(List<Binding> bindings) {
    return bindings.stream().map(LiveLoader::dependency).toList();
  }

  private static Dependency dependency(Binding b) {
    return new Dependency(b.name(), b.neededBy(), b.file(), Dependency.FoundBy.valueOf(b.foundBy().name()),
        b.detail(), b.missingVersions());
  }
}
