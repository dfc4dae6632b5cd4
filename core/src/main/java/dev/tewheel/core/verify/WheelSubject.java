package dev.tewheel.core.verify;

import dev.tewheel.bundle.io.Sha256;
import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.bundle.manifest.ManifestException;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.wheel.WheelArchive;
import dev.tewheel.elf.ByteSource;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;

/**
 * A .whl opened in place (never extracted to disk) as checks see it: the entries under its wheel_lib folder are the
 * subject's files, and the whole archive is its {@link Subject#wheel()} for the wheel-level checks. Close it when the
 * checks are done.
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
    // layout=any: the whole wheel is the subject, every entry by its own name.
    String folder = fallback.any() ? "" : prefix + "/";
    List<SubjectFile> files = new ArrayList<>();
    Set<String> paths = new HashSet<>();
    List<WheelArchive.Entry> entries = archive.entries();
    for (int i = 0; i < entries.size(); i++) {
      WheelArchive.Entry entry = entries.get(i);
      if (entry.directory() || !entry.name().startsWith(folder) || entry.name().length() == folder.length()) {
        continue;
      }
      String path = entry.name().substring(folder.length());
      if (paths.add(path)) { // a second entry of the same name is WHEEL-PATHS' to report
        files.add(new EntryFile(archive, i, entry, path));
      }
    }
    // Every entry inflated and hashed once, on all cores, keeping what the ELF checks will read of wheel_lib's.
    Set<Integer> ours = new HashSet<>();
    files.forEach(f -> ours.add(((EntryFile) f).index()));
    archive.readAll(ours::contains);
    Layout layout = fallback;
    Manifest manifest = null;
    String manifestName = folder + Layout.MANIFEST;
    // The first entry of that name (a second is WHEEL-PATHS' to report), held to Manifest.MAX_BYTES as everywhere.
    int index = -1;
    for (int i = 0; i < entries.size() && index < 0; i++) {
      index = entries.get(i).name().equals(manifestName) && !entries.get(i).directory() ? i : -1;
    }
    try {
      if (index >= 0 && !fallback.any()) {
        try (InputStream in = archive.stream(index)) {
          manifest = Manifest.read(in, archive.origin(manifestName));
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

  /** One entry under wheel_lib, {@code index} of the archive's entries. */
  private record EntryFile(WheelArchive archive, int index, WheelArchive.Entry entry, String path)
      implements SubjectFile {
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

    @Override
    public String sha256() throws IOException {
      return Sha256.hex(archive.sha256(entry.name()));
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

    @Override
    public String toString() {
      return path + " <- " + origin();
    }
  }
}
