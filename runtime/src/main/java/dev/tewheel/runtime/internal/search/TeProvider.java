package dev.tewheel.runtime.internal.search;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.bundle.ncclep.NcclEpLibraryName;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.loader.ElfFiles;
import dev.tewheel.loader.Environment;
import dev.tewheel.loader.te.NcclEpProvider;
import dev.tewheel.runtime.internal.ffm.Libc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Which NCCL EP library TE's own provider opens when {@code nvte_ep_initialize} runs, so that te-runtime vets that
 * very file and not another one (docs/runtime.md, "What te-runtime refuses in a bundle"). The order is loader's
 * {@link NcclEpProvider} rule, applied to this process's NCCL_EP_HOME, or to the bundle's NCCL EP home when it is
 * unset, since te-runtime sets it first (a user's value wins); what stays here is which file the provider would
 * open, a special file included, since te-runtime refuses that rather than skip it.
 *
 * @param file the file it would open
 * @param home the NCCL_EP_HOME it would read, if any
 * @param homeSource who set (or would set) that value, for messages
 */
record TeProvider(Path file, Optional<Path> home, String homeSource) {
  /**
   * The provider's choice for a bundle, when one of its candidates exists.
   *
   * @param te the bundle's TE library, if any
   * @param bundleHome the folder te-runtime sets NCCL_EP_HOME to for the bundle, if any
   */
  static Optional<TeProvider> choice(Optional<Path> te, Optional<Path> bundleHome, int major) {
    // Plain code, no lambdas or streams: this runs on te-runtime's cold path, where each call site spun costs.
    String value = Libc.getenv(Config.NCCL_EP_HOME_ENV);
    Optional<Path> own = te.isPresent() ? Optional.ofNullable(te.get().getParent()) : Optional.empty();
    Optional<Path> home;
    String source;
    if (value != null) {
      home = NcclEpProvider.home(value, null);
      source = Environment.setByRuntime(Config.NCCL_EP_HOME_ENV, value) ? "set by te-runtime" : "set by the user";
    } else {
      home = bundleHome.isPresent() ? bundleHome : own.isPresent() ? NcclEpProvider.home(null, own.get())
          : Optional.empty();
      source = "unset, so " + (bundleHome.isPresent() ? "te-runtime" : "TE's provider") + " sets it";
    }
    for (Path file : NcclEpProvider.candidates(home, own, major)) {
      if (opens(file, major)) {
        return Optional.of(new TeProvider(file, home, source));
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
      ElfFile elf = ElfFiles.read(file); // with symbols: the selection rule reads the same file next
      return elf.soname().isPresent() && elf.soname().get().equals(NcclEpLibraryName.soname(major));
    } catch (IOException e) {
      return false; // unreadable: the provider cannot read its SONAME either and goes on
    }
  }

  /**
   * Why te-runtime refuses {@code chosen}, which it vetted, when the provider would open this other file.
   *
   * @param inNcclEpHome whether the bundle is NCCL_EP_HOME's own folder
   * @param bundleHome the folder te-runtime sets NCCL_EP_HOME to for the bundle, if any
   */
  String refusal(Path chosen, boolean inNcclEpHome, Optional<Path> bundleHome) {
    String fix = inNcclEpHome
        ? "Make " + file + " the NCCL EP library to load (a link to " + chosen.getFileName() + "), or remove it"
        : "Unset NCCL_EP_HOME" + (bundleHome.isPresent() ? " or set it to the bundle's NCCL EP home "
            + bundleHome.get() : "") + ", or give no wheel_lib, so that the search takes NCCL_EP_HOME's own library";
    return "TE's provider would load " + file + " (NCCL_EP_HOME " + (home.isPresent() ? home.get() : "empty") + ", "
        + homeSource + "), not " + chosen + ", the library te-runtime vetted; te-runtime refuses rather than let"
        + " an unchecked library into the process. " + fix;
  }
}
