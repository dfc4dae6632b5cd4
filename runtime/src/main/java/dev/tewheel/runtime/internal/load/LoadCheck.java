package dev.tewheel.runtime.internal.load;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.bundle.manifest.ManifestEntry;
import dev.tewheel.bundle.ncclep.NcclEpCandidate;
import dev.tewheel.bundle.ncclep.NcclEpFunctions;
import dev.tewheel.bundle.ncclep.NcclEpSelection;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.runtime.internal.ffm.HostMachine;
import dev.tewheel.runtime.internal.host.PinnedLibrary;
import dev.tewheel.runtime.internal.host.TrustedFolder;
import dev.tewheel.runtime.internal.search.Config;
import dev.tewheel.runtime.internal.search.Digests;
import dev.tewheel.runtime.internal.search.Resolver;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The last check before a library of the bundle is loaded, made on the descriptor it is loaded through
 * ({@link PinnedLibrary}), so that what was checked is what runs (docs/runtime.md, "Bytes loaded are bytes
 * checked"). The availability report checked the files by path before; a file renamed over a path since then is
 * caught here, or never reaches the dynamic linker at all.
 */
public final class LoadCheck {
  /** For {@link #vetted}: the library is TE, which has no NCCL EP major to be selected at. */
  private static final int TRANSFORMER_ENGINE = -1;

  private LoadCheck() {}

  /**
   * Opens the NCCL EP library the selection chose and judges the opened bytes again: the one selection rule, and,
   * when the manifest lists the file, its size and (with {@code te.verifyDigests}) its SHA-256; with
   * {@code te.verifyDigests} also {@link TrustedFolder#requireFile}. te-runtime then loads it through the descriptor.
   *
   * @throws IOException whose message is the refusal, naming the file
   */
  public static PinnedLibrary ncclEp(Resolver.Bundle bundle, Path chosen, int major, Config config)
      throws IOException {
    return vetted(bundle, chosen, bundle.manifest().isPresent() ? bundle.manifest().get().ncclEpLibrary()
        : Optional.empty(), config, major);
  }

  /**
   * Opens libtransformer_engine.so and checks the opened bytes against the manifest (size, and SHA-256 with
   * {@code te.verifyDigests}). TE is loaded by path, not through the descriptor: its provider asks dladdr where TE
   * lives to find NCCL EP and its headers beside it. So with {@code te.verifyDigests} the folders that path and the
   * provider's go through must pass {@link TrustedFolder} (no other user can swap a file there after this check)
   * and TE itself {@link TrustedFolder#requireFile}; the caller checks just before dlopen that the path still names
   * the opened file ({@link PinnedLibrary#isNamedBy}), and after it that the file mapped is that one.
   *
   * @throws IOException whose message is the refusal, naming the file or folder
   */
  public static PinnedLibrary transformerEngine(Resolver.Bundle bundle, Path te, Config config) throws IOException {
    return vetted(bundle, te, bundle.manifest().isPresent() ? bundle.manifest().get().transformerEngineLibrary()
        : Optional.empty(), config, TRANSFORMER_ENGINE);
  }

  /**
   * The one judgement of a library, opened here and closed when refused: NCCL EP's selection again at
   * {@code ncclEpMajor} (TE's folders instead, for {@link #TRANSFORMER_ENGINE}), then the manifest's size and digest
   * when {@code manifestEntry} is the file's.
   */
  private static PinnedLibrary vetted(Resolver.Bundle bundle, Path file, Optional<ManifestEntry> manifestEntry,
      Config config, int ncclEpMajor) throws IOException {
    // The manifest's entry counts when it lists this very path.
    Path listed = manifestEntry.isPresent() ? WheelLibPaths.inside(bundle.folder(), manifestEntry.get().path()) : null;
    Optional<ManifestEntry> entry = listed != null
        && listed.toAbsolutePath().normalize().equals(file.toAbsolutePath().normalize()) ? manifestEntry
        : Optional.empty();
    // A file the manifest lists must be that regular file; an NCCL_EP_HOME's build tree holds links, which count.
    PinnedLibrary library = PinnedLibrary.open(file, entry.isEmpty());
    try {
      if (ncclEpMajor == TRANSFORMER_ENGINE) {
        transformerEngineFolders(bundle, library.file(), config);
      } else {
        ncclEpSelection(library, ncclEpMajor);
      }
      check(bundle, library, entry, config);
      return library;
    } catch (IOException | RuntimeException e) {
      library.close();
      throw e;
    }
  }

  /** NCCL EP's one selection rule once more, on the bytes of the opened file. */
  private static void ncclEpSelection(PinnedLibrary library, int major) throws IOException {
    Path chosen = library.file();
    // An anonymous class, not a lambda: this runs on the cold path to the first NCCL EP call.
    NcclEpSelection.Reader throughDescriptor = new NcclEpSelection.Reader() {
      @Override
      public ElfFile read(Path file) throws IOException {
        return library.elf(true);
      }
    };
    NcclEpCandidate judged = NcclEpSelection.select(List.of(chosen), major, HostMachine.current(), chosen,
        Set.copyOf(NcclEpFunctions.REQUIRED), throughDescriptor).candidates().get(0);
    if (!judged.accepted()) {
      throw new IOException(chosen + " changed after te-runtime checked it: it is now refused (" + judged.reason()
          + "), and te-runtime loads only what it checked");
    }
  }

  /** With {@code te.verifyDigests}: the folders TE's path and its provider's go through must be trusted. */
  private static void transformerEngineFolders(Resolver.Bundle bundle, Path te, Config config) throws IOException {
    if (!config.effectiveVerifyDigests()) {
      return;
    }
    Set<Path> folders = new LinkedHashSet<>();
    folders.add(te.toAbsolutePath().normalize().getParent());
    Optional<ManifestEntry> ep = bundle.manifest().isPresent() ? bundle.manifest().get().ncclEpLibrary()
        : Optional.empty();
    Path epFile = ep.isPresent() ? WheelLibPaths.inside(bundle.folder(), ep.get().path()) : null;
    if (epFile != null) {
      folders.add(epFile.toAbsolutePath().normalize().getParent());
    }
    for (Path folder : folders) {
      try {
        TrustedFolder.require(folder);
      } catch (TrustedFolder.Refusal refusal) {
        throw new IOException(refusal.describe("with " + Config.VERIFY_DIGESTS_PROPERTY + "=true, the bundle"
            + " folder") + ", or copy the bundle to a folder of your own: TE is loaded by path (its provider"
            + " finds NCCL EP beside it), so nobody but you and root may be able to swap a file there after"
            + " te-runtime checked it");
      }
    }
  }

  private static void check(Resolver.Bundle bundle, PinnedLibrary library, Optional<ManifestEntry> entry,
      Config config) throws IOException {
    boolean hashes = config.effectiveVerifyDigests();
    if (hashes) {
      try {
        TrustedFolder.requireFile(library.file(), library.status());
      } catch (TrustedFolder.Refusal refusal) {
        throw new IOException("with " + Config.VERIFY_DIGESTS_PROPERTY + "=true, " + refusal.getMessage());
      }
    }
    if (entry.isPresent()) {
      List<String> problems = Digests.check(bundle.folder(), library, entry.get(), hashes);
      if (!problems.isEmpty()) {
        throw new IOException("the bundle in " + bundle.folder() + " does not match its manifest: "
            + String.join("; ", problems) + " (checked on the file te-runtime opened to load). Rebuild it with"
            + " te:assemble-wheel-lib, or check it with te:verify-wheel-lib");
      }
    }
  }
}
