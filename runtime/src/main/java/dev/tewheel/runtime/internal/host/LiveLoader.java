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

  /**
   * What {@code dlopen(name, RTLD_NOW)} called from te-runtime would do.
   *
   * @param file the file found for {@code name}; empty when none is
   * @param foundBy how it was found
   * @param detail why not, when a file was there; else empty
   * @param dependencies as {@link #needed}; empty when no file was found
   */
  public record Opening(Optional<Path> file, Dependency.FoundBy foundBy, String detail,
      List<Dependency> dependencies) {
    /** Whether glibc's dlopen would succeed. */
    public boolean succeeds() {
      return file.isPresent() && dependencies.stream().allMatch(Dependency::found);
    }
  }

  /** {@link LoaderSearch#needed} in this process. */
  public static List<Dependency> needed(Path library, ElfFile elf, Map<String, Path> preloads) {
    return dependencies(LoaderSearch.needed(LinkerHost.host(), library, elf, preloads));
  }

  /** {@link LoaderSearch#closure} in this process. */
  public static List<Dependency> closure(Path library, ElfFile elf, Map<String, Path> preloads) {
    return dependencies(LoaderSearch.closure(LinkerHost.host(), library, elf, preloads));
  }

  /** {@link LoaderSearch#open} in this process. */
  public static Opening open(String name, ElfMachine machine) {
    LoaderSearch.Opening opening = LoaderSearch.open(LinkerHost.host(), name, machine);
    return new Opening(opening.file(), foundBy(opening.foundBy()), opening.detail(),
        dependencies(opening.dependencies()));
  }

  /** {@link LoaderSearch#byName} in this process: where glibc's dlopen(name) would take it from. */
  public static Optional<Dependency> byName(String name, ElfMachine machine) {
    return LoaderSearch.byName(LinkerHost.host(), name, machine).map(LiveLoader::dependency);
  }

  /**
   * Where te-runtime itself takes {@code name} from when it is to load it: {@link #byName}'s search, but a folder
   * that an empty or relative entry names is skipped ({@link UnnamedFolders}), although glibc's dlopen would search
   * it. Empty when none is found.
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
    return found.map(LiveLoader::dependency);
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
    return new Dependency(b.name(), b.neededBy(), b.file(), foundBy(b.foundBy()), b.detail(),
        b.missingVersions());
  }

  private static Dependency.FoundBy foundBy(dev.tewheel.loader.FoundBy foundBy) {
    return Dependency.FoundBy.valueOf(foundBy.name());
  }
}
