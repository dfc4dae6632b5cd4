package dev.tewheel.core.assemble;

import dev.tewheel.bundle.manifest.FileKind;
import java.nio.file.Path;
import java.util.Objects;

/**
 * One file that assemble will ship: where it comes from (a real file, symlinks already resolved) and where it goes
 * inside wheel_lib.
 */
public record PlannedFile(String target, Path source, FileKind kind) {
  public PlannedFile {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(kind, "kind");
  }

  /** 0755 for libraries, 0644 for the rest: the same bits whatever the build machine's umask. */
  public boolean executable() {
    return kind != FileKind.HEADER;
  }
}
