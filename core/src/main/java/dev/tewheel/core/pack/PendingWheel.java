package dev.tewheel.core.pack;

import dev.tewheel.bundle.io.AtomicFiles;
import dev.tewheel.bundle.io.OwnTemporaries;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A wheel written but not yet in place: it sits under its final file name (whose tags the checks read) in a
 * private folder beside the target, {@code .<name>.whl.pack-<pid>-<random>/}, with the spill file of its large
 * entries. {@link #commit()} renames it over the target, {@link #moveTo(Path)} elsewhere; {@link #close()} removes
 * the folder and whatever is still in it. Until then the target, a previous good wheel, is untouched.
 */
public final class PendingWheel implements Closeable {
  /** The kind of {@link OwnTemporaries} the folder is. */
  static final String KIND = "pack";

  private final Path target;
  private final Path folder;
  private final PackResult result;

  PendingWheel(Path target, Path folder, PackResult result) {
    this.target = target;
    this.folder = folder;
    this.result = result;
  }

  /** Where the wheel sits now: {@code <folder>/<final name>}. */
  public Path file() {
    return result.wheel();
  }

  /** Where {@link #commit()} puts it. */
  public Path target() {
    return target;
  }

  /** What was written, {@link PackResult#wheel()} being {@link #file()}. */
  public PackResult result() {
    return result;
  }

  /** Renames the wheel over the target (atomically where the file system can); returns what is there now. */
  public PackResult commit() throws IOException {
    AtomicFiles.replace(file(), target);
    return new PackResult(target, result.name(), result.files(), result.bytesIn(), result.bytesOut(), result.time());
  }

  /** Renames the wheel to {@code other} (beside the target), replacing what was there. */
  public void moveTo(Path other) throws IOException {
    AtomicFiles.replace(file(), other);
  }

  @Override
  public void close() throws IOException {
    OwnTemporaries.delete(folder);
  }
}
