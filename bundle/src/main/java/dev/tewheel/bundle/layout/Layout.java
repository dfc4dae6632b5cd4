package dev.tewheel.bundle.layout;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Where each piece lives inside wheel_lib: the one description that assemble, verify, pack and (through the
 * manifest) the runtime share. Paths are relative, '/'-separated, and may hold {@code {major}} for the NCCL EP
 * major version.
 *
 * @param name a built-in layout's name, or "custom" once a path was changed
 * @param transformerEngineLibrary where libtransformer_engine.so goes
 * @param ncclEpLibrary where the one real NCCL EP library file goes
 * @param includeRoot the folder that receives NCCL EP's {@code include/} tree; its parent is NCCL_EP_HOME
 */
public record Layout(String name, String transformerEngineLibrary, String ncclEpLibrary, String includeRoot) {
  /** The manifest's file name, at the top of every wheel_lib. */
  public static final String MANIFEST = "te-wheel-lib.json";

  /**
   * Where a wheel_lib sits on the class path by default: te:jar-wheel-lib writes it there, te-runtime extracts it
   * from there.
   */
  public static final String RESOURCE_FOLDER = "META-INF/te-wheel/wheel_lib";
  /**
   * The jar manifest attribute naming the CUDA variant a class-path bundle was made for (e.g. {@code 12}):
   * te:jar-wheel-lib writes it, te-runtime reads it to choose among several bundles.
   */
  public static final String CUDA_MAJOR_ATTRIBUTE = "TE-Wheel-Lib-CUDA-Major";

  /** The built-in layout's name when none is configured. */
  public static final String DEFAULT_NAME = "default";

  /** The tree TE's maintainers described for the release. */
  public static final Layout DEFAULT =
      new Layout(DEFAULT_NAME, "libtransformer_engine.so", "libnccl_ep.so", "nccl_ep/include");

  /** wheel_lib/nccl_ep is a complete NCCL_EP_HOME: {@code lib/libnccl_ep.so.<M>} and {@code include/}. */
  public static final Layout EP_HOME =
      new Layout("ep-home", "libtransformer_engine.so", "nccl_ep/lib/libnccl_ep.so.{major}", "nccl_ep/include");

  /**
   * Any native wheel, verified without TE's layout: every shared object gets the library checks, the layout's
   * checks step aside. Verify and diff only; assemble and pack refuse it. Its paths are the default's, never used.
   */
  public static final Layout ANY = new Layout("any", "libtransformer_engine.so", "libnccl_ep.so", "nccl_ep/include");

  private static final List<Layout> BUILT_IN = List.of(DEFAULT, EP_HOME, ANY);

  public Layout {
    Objects.requireNonNull(name, "name");
    checkRelative("transformerEngineLibrary", transformerEngineLibrary);
    checkRelative("ncclEpLibrary", ncclEpLibrary);
    checkRelative("includeRoot", includeRoot);
    if (!includeRoot.equals("include") && !includeRoot.endsWith("/include")) {
      // NCCL EP's JIT reads $NCCL_EP_HOME/include/nccl_ep, so only a folder named include can serve it.
      throw new IllegalArgumentException("includeRoot '" + includeRoot + "' must be a folder named include"
          + " (e.g. nccl_ep/include): NCCL EP's JIT reads its headers from $NCCL_EP_HOME/include/nccl_ep");
    }
  }

  /** A built-in layout by name: "default" or "ep-home". */
  public static Layout named(String name) {
    String wanted = name.trim().toLowerCase(Locale.ROOT);
    for (Layout layout : BUILT_IN) {
      if (layout.name.equals(wanted)) {
        return layout;
      }
    }
    throw new IllegalArgumentException("unknown layout '" + name + "': expected one of "
        + BUILT_IN.stream().map(Layout::name).toList());
  }

  /** True for {@link #ANY}: no file is the TE or NCCL EP library, no folder the include root. */
  public boolean any() {
    return name.equals(ANY.name);
  }

  public Layout withNcclEpLibrary(String path) {
    return path.equals(ncclEpLibrary) ? this : new Layout("custom", transformerEngineLibrary, path, includeRoot);
  }

  public Layout withIncludeRoot(String path) {
    return path.equals(includeRoot) ? this : new Layout("custom", transformerEngineLibrary, ncclEpLibrary, path);
  }

  /** The NCCL EP library's path for a given major, e.g. {@code nccl_ep/lib/libnccl_ep.so.0}. */
  public String ncclEpLibraryPath(int major) {
    return ncclEpLibrary.replace("{major}", Integer.toString(major));
  }

  /** The folder NCCL_EP_HOME must name so that the JIT finds {@code include/nccl_ep/} in it ("" is wheel_lib). */
  public String ncclEpHome() {
    int slash = includeRoot.lastIndexOf('/');
    return slash < 0 ? "" : includeRoot.substring(0, slash);
  }

  private static void checkRelative(String what, String path) {
    WheelLibPaths.requireInside(what, Objects.requireNonNull(path, what), false);
  }
}
