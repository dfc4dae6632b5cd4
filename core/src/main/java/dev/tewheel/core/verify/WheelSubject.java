package dev.tewheel.core.verify;

import dev.tewheel.bundle.io.Sha256;
import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.bundle.manifest.ManifestException;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.wheel.InstalledPath;
import dev.tewheel.core.wheel.InstalledTree;
import dev.tewheel.core.zip.WheelArchive;
import dev.tewheel.elf.ByteSource;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;

/**
 * A .whl opened in place (never extracted to disk) as checks see it: the files pip installs under its wheel_lib
 * folder ({@link InstalledTree}: normalised names, {@code <x>.data/platlib/} and {@code purelib/} on the root) are
 * the subject's files, and the whole archive is its {@link Subject#wheel()} for the wheel-level checks. Close it
 * when the checks are done.
 *
 * <pre>{@code
 * try (WheelSubject wheel = WheelSubject.open(whl, "transformer_engine/wheel_lib", Layout.DEFAULT, settings)) {
 *   List<Finding> findings = CheckCatalogue.run(wheel.subject(), Map.of());
 * }
 * }</pre>
 */
public final class WheelSubject implements Closeable {
  private final WheelArchive archive;
  private final Subject subject;

  private WheelSubject(WheelArchive archive, Subject subject) {
    this.archive = archive;
    this.subject = subject;
  }

  /**
   * Opens the wheel and reads its central directory (and the manifest, when wheel_lib has one).
   *
   * @param wheelLibPrefix the folder of wheel_lib inside the wheel, e.g. "transformer_engine/wheel_lib" (no
   *     trailing slash)
   * @param fallback the layout when the wheel_lib has no te-wheel-lib.json manifest, or one that does not parse
   * @throws IOException naming the file when it is missing or not a zip archive
   */
  public static WheelSubject open(Path whl, String wheelLibPrefix, Layout fallback, CheckSettings settings)
      throws IOException {
    Objects.requireNonNull(whl, "whl");
    Objects.requireNonNull(fallback, "fallback");
    Objects.requireNonNull(settings, "settings");
    if (!fallback.any() && (wheelLibPrefix == null || wheelLibPrefix.isEmpty() || wheelLibPrefix.startsWith("/")
        || wheelLibPrefix.endsWith("/"))) {
      throw new IllegalArgumentException("wheelLibPrefix '" + wheelLibPrefix + "' must be the wheel_lib folder"
          + " inside the wheel without leading or trailing '/', e.g. transformer_engine/wheel_lib");
    }
    WheelArchive archive = WheelArchive.open(whl);
    try {
      return new WheelSubject(archive, read(archive, whl, wheelLibPrefix, fallback, settings));
    } catch (IOException | RuntimeException e) {
      archive.close();
      throw e;
    }
  }

  private static Subject read(WheelArchive archive, Path whl, String prefix, Layout fallback,
      CheckSettings settings) throws IOException {
    // The installed tree is judged, not the archive's spelling of it: each entry by where pip installs it, and of
    // two entries on one file the one pip writes last (WHEEL-PATHS reports the pair). layout=any: every installed
    // file, site-packages' by their path there, the other folders' (scripts, headers, data) by their entry name.
    String folder = fallback.any() ? "" : prefix + "/";
    InstalledTree tree = InstalledTree.of(archive.entries());
    Map<String, Integer> firstOfName = new HashMap<>();
    for (int i = 0; i < archive.entries().size(); i++) {
      firstOfName.putIfAbsent(archive.entries().get(i).name(), i);
    }
    Map<String, EntryFile> byPath = new LinkedHashMap<>();
    for (int i : tree.installOrder()) {
      InstalledPath installed = tree.get(i);
      String path = !installed.inSitePackages() ? (fallback.any() ? installed.unpacked() : null)
          : installed.path().startsWith(folder) ? installed.path().substring(folder.length()) : null;
      if (path != null) {
        byPath.remove(path); // the later write stays, and keeps its place in install order
        byPath.put(path, new EntryFile(archive, i, archive.entries().get(i), path, firstOfName.get(
            archive.entries().get(i).name()) == i));
      }
    }
    List<SubjectFile> files = new ArrayList<>(byPath.values());
    // Every entry inflated and hashed once, on all cores, keeping what the ELF checks will read of wheel_lib's.
    Set<Integer> ours = new HashSet<>();
    byPath.values().forEach(f -> ours.add(f.index()));
    archive.readAll(ours::contains);
    Layout layout = fallback;
    Manifest manifest = null;
    EntryFile manifestFile = fallback.any() ? null : byPath.get(Layout.MANIFEST);
    try {
      if (manifestFile != null) { // held to Manifest.MAX_BYTES as everywhere
        try (InputStream in = manifestFile.stream()) {
          manifest = Manifest.read(in, manifestFile.origin());
        }
        layout = manifest.toLayout();
      }
    } catch (IOException | ManifestException e) {
      manifest = null; // MANIFEST-DIGESTS reports it; the fallback layout stands in.
    }
    Subject subject = new Subject(fallback.any() ? "wheel " + whl.getFileName() + " (layout any)"
        : "wheel_lib " + whl.getFileName() + "!" + prefix, layout, files, settings)
        .withWheel(archive);
    return manifest == null ? subject : subject.withManifest(manifest);
  }

  /** The wheel_lib's files by their path inside it; {@code subject().wheel()} is the whole archive. */
  public Subject subject() {
    return subject;
  }

  /** The whole archive, as the wheel-level checks read it. */
  public WheelArchive archive() {
    return archive;
  }

  @Override
  public void close() throws IOException {
    archive.close();
  }

  /** One entry pip installs under wheel_lib, {@code index} of the archive's entries; {@code path} is where. */
  private record EntryFile(WheelArchive archive, int index, WheelArchive.Entry entry, String path,
      boolean firstOfName) implements SubjectFile {
    @Override
    public long size() {
      return entry.size();
    }

    @Override
    public ByteSource open() throws IOException {
      return archive.source(index);
    }

    @Override
    public InputStream stream() throws IOException {
      return archive.stream(index);
    }

    /** The archive's digest of the first entry of this name; a later entry of the name is hashed itself. */
    @Override
    public String sha256() throws IOException {
      return firstOfName ? Sha256.hex(archive.sha256(entry.name())) : SubjectFile.super.sha256();
    }

    @Override
    public EntryType type() {
      return entry.symlink() ? EntryType.SYMLINK : entry.special() ? EntryType.OTHER : EntryType.FILE;
    }

    @Override
    public OptionalInt mode() {
      return entry.mode();
    }

    @Override
    public String origin() {
      return archive.origin(entry.name());
    }

    /** The installed file's name: a respelled entry ({@code …/libx.so/.}) names its file only once normalised. */
    @Override
    public String originName() {
      return path.substring(path.lastIndexOf('/') + 1);
    }

    @Override
    public String toString() {
      return path + " <- " + origin();
    }
  }
}
