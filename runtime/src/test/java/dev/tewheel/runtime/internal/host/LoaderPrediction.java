package dev.tewheel.runtime.internal.host;

import dev.tewheel.loader.Binding;
import dev.tewheel.loader.LoaderSearch;
import dev.tewheel.runtime.internal.ffm.HostMachine;
import dev.tewheel.runtime.report.Dependency;
import dev.tewheel.runtime.report.LoadPrediction;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * te-runtime's side of LoaderDifferentialTest, run in a child JVM with the case's LD_LIBRARY_PATH and current
 * directory: the loader model's {@link LoaderSearch#open} over this process's host ({@link LinkerHost#host}) and, as
 * the probe opens with RTLD_NOW, {@link LiveLoader#predict}'s verdict on its versions and symbols, printed as
 * dlopen_probe.c prints glibc's.
 */
public final class LoaderPrediction {
  private LoaderPrediction() {}

  public static void main(String[] args) {
    LoaderSearch.Opening opening = LoaderSearch.open(LinkerHost.host(), args[0], HostMachine.current());
    if (!opening.succeeds()) {
      System.out.println("fail " + opening.foundBy() + " " + opening.dependencies().stream()
          .filter(d -> !d.found()).map(LoaderPrediction::problem).toList());
      return;
    }
    Optional<LoadPrediction> prediction = LiveLoader.predict(opening.file().get(), true, Map.of(), List.of(),
        Map.of());
    if (prediction.isPresent() && !prediction.get().loads()) {
      System.out.println("fail " + prediction.get().detail());
      return;
    }
    System.out.println("ok " + real(opening.file().get()));
    for (int i = 1; i < args.length; i++) {
      String name = args[i];
      Optional<Path> file = opening.dependencies().stream().filter(d -> d.name().equals(name))
          .flatMap(d -> d.file().stream()).findFirst();
      System.out.println(name + " " + file.map(LoaderPrediction::real).orElse("-"));
    }
  }

  /** The report's sentence for a name that would not bind. */
  private static String problem(Binding b) {
    return new Dependency(b.name(), b.neededBy(), b.file(), Dependency.FoundBy.valueOf(b.foundBy().name()),
        b.detail(), b.missingVersions()).problem();
  }

  private static String real(Path file) {
    try {
      return file.toRealPath().toString();
    } catch (IOException e) {
      return file.toString();
    }
  }
}
