package dev.tewheel.bundle.manifest;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.ncclep.NcclEpLibraryName;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Where each piece of a wheel_lib sits, with or without a manifest: the manifest's record when there is one, else
 * where a layout puts it. te-runtime finds its bundle's pieces here and the checks find a subject's NCCL EP library
 * here, so both read a wheel_lib the same way.
 */
public final class Placement {
  private Placement() {}

  /** libtransformer_engine.so's path in wheel_lib: the manifest's, else the default layout's. */
  public static String transformerEngineLibrary(Optional<Manifest> manifest) {
    Optional<ManifestEntry> entry = manifest.isPresent() ? manifest.get().transformerEngineLibrary() : Optional.empty();
    return entry.isPresent() ? entry.get().path() : Layout.DEFAULT.transformerEngineLibrary();
  }

  /**
   * The folder NCCL_EP_HOME must name for NCCL EP's JIT to find the shipped headers, if {@code folder} ships them: the
   * manifest's {@code ncclEpHome} ("" is wheel_lib itself), else the default layout's when its include/nccl_ep is
   * there.
   */
  public static Optional<Path> ncclEpHome(Path folder, Optional<Manifest> manifest) {
    if (manifest.isPresent()) {
      String home = manifest.get().ncclEpHome();
      return home == null ? Optional.empty() : Optional.of(home.isEmpty() ? folder : folder.resolve(home));
    }
    Path home = folder.resolve(Layout.DEFAULT.ncclEpHome());
    return Files.isDirectory(home.resolve("include/nccl_ep")) ? Optional.of(home) : Optional.empty();
  }

  /**
   * Without a manifest, the folders of wheel_lib (relative, "" for wheel_lib itself) that may hold the NCCL EP
   * library: where each built-in layout puts it.
   */
  public static List<String> ncclEpLibraryFolders() {
    Set<String> folders = new LinkedHashSet<>();
    for (Layout layout : List.of(Layout.DEFAULT, Layout.EP_HOME)) {
      folders.add(parentOf(layout.ncclEpLibrary()));
    }
    return List.copyOf(folders);
  }

  /**
   * The NCCL EP library among {@code paths} (a wheel_lib's files) where {@code layout} puts it: its path for the
   * major when the major is known or the layout's path names none; else the one file of the layout's
   * {@code {major}} pattern whose name is an NCCL EP library's.
   */
  public static Optional<String> ncclEpLibrary(Layout layout, Collection<String> paths, OptionalInt major) {
    String pattern = layout.ncclEpLibrary();
    if (major.isPresent() || !pattern.contains("{major}")) {
      String path = layout.ncclEpLibraryPath(major.orElse(0));
      return paths.contains(path) ? Optional.of(path) : Optional.empty();
    }
    String prefix = pattern.substring(0, pattern.indexOf("{major}"));
    List<String> matches = paths.stream().filter(p -> p.startsWith(prefix)
        && NcclEpLibraryName.parse(p.substring(p.lastIndexOf('/') + 1)).isPresent()).toList();
    return matches.size() == 1 ? Optional.of(matches.get(0)) : Optional.empty();
  }

  private static String parentOf(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? "" : path.substring(0, slash);
  }
}
