package dev.tewheel.runtime.internal;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.bundle.ncclep.NcclEpLibraryName;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.loader.Environment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which NCCL EP library TE's own provider opens when {@code nvte_ep_initialize} runs, so that te-runtime vets that
 * very file and not another one (docs/runtime.md, "What te-runtime refuses in a bundle"). The provider sets
 * {@code NCCL_EP_HOME} to {@code <its folder>/nccl_ep} unless it is set (te-runtime sets it first to the bundle's
 * NCCL EP home; a user's value wins), then tries {@code $NCCL_EP_HOME/lib/libnccl_ep.so.<M>},
 * {@code $NCCL_EP_HOME/lib/libnccl_ep.so}, and the same two names beside itself; it skips a name that does not exist
 * or whose SONAME is another, and opens the first other one. An empty NCCL_EP_HOME counts as unset there.
 *
 * @param file the file it would open
 * @param home the NCCL_EP_HOME it would read, if any
 * @param homeSource who set (or would set) that value, for messages
 */
record TeProvider(Path file, Optional<Path> home, String homeSource) {
  /** The provider's choice for this bundle, when one of its candidates exists. */
  static Optional<TeProvider> choice(Resolver.Bundle bundle, int major) {
    // Plain code, no lambdas or streams: this runs on te-runtime's cold path, where each call site spun costs.
    String value = Libc.getenv(Config.NCCL_EP_HOME_ENV);
    Optional<Path> te = bundle.transformerEngineLibrary();
    Path own = te.isPresent() ? te.get().getParent() : null;
    Path home;
    String source;
    if (value != null) {
      home = value.isEmpty() ? null : Path.of(value).toAbsolutePath().normalize();
      source = Environment.setByRuntime(Config.NCCL_EP_HOME_ENV, value) ? "set by te-runtime" : "set by the user";
    } else {
      Optional<Path> bundleHome = bundle.ncclEpHome();
      home = bundleHome.isPresent() ? bundleHome.get() : own == null ? null : own.resolve("nccl_ep");
      source = "unset, so " + (bundleHome.isPresent() ? "te-runtime" : "TE's provider") + " sets it";
    }
    List<Path> tried = new ArrayList<>();
    for (Path folder : new Path[] {home == null ? null : home.resolve("lib"), own}) {
      if (folder != null) {
        tried.add(folder.resolve(NcclEpLibraryName.soname(major)));
        tried.add(folder.resolve(NcclEpLibraryName.BASE));
      }
    }
    for (Path file : tried) {
      if (opens(file, major)) {
        return Optional.of(new TeProvider(file, Optional.ofNullable(home), source));
      }
    }
    return Optional.empty();
  }

  /** Whether the provider would open {@code file}: it exists, and is no regular file or has the SONAME it wants. */
  private static boolean opens(Path file, int major) {
    if (!Files.exists(file)) {
      return false;
    }
    try {
      if (WheelLibPaths.kindOf(file.toRealPath()) != null) {
        return true; // it opens whatever exists there: te-runtime refuses this, it does not open it
      }
      ElfFile elf = ElfCache.read(file); // with symbols: the selection rule reads the same file next

      return elf.soname().isPresent() && elf.soname().get().equals(NcclEpLibraryName.soname(major));
    } catch (IOException e) {
      return false; // unreadable: the provider cannot read its SONAME either and goes on
    }
  }

  /** Why te-runtime refuses {@code chosen}, which it vetted, when the provider would open this other file. */
  String refusal(Path chosen, Resolver.Bundle bundle) {
    Optional<Path> bundleHome = bundle.ncclEpHome();
    String fix = bundle.kind() == Resolver.Kind.NCCL_EP_HOME
        ? "Make " + file + " the NCCL EP library to load (a link to " + chosen.getFileName() + "), or remove it"
        : "Unset NCCL_EP_HOME" + (bundleHome.isPresent() ? " or set it to the bundle's NCCL EP home "
            + bundleHome.get() : "") + ", or give no wheel_lib, so that the search takes NCCL_EP_HOME's own library";
    return "TE's provider would load " + file + " (NCCL_EP_HOME " + (home.isPresent() ? home.get() : "empty") + ", "
        + homeSource + "), not " + chosen + ", the library te-runtime vetted; te-runtime refuses rather than let"
        + " an unchecked library into the process. " + fix;
  }
}
