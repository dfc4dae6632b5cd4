package dev.tewheel.loader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * Which file a path named when te-runtime read it: file key (device and inode), size and modification time. A
 * library replaced by a copy, moved over, or rewritten in place gets another stamp, so what was read from it (its
 * ELF facts, its NCCL version, the ld.so cache's table) is read again.
 */
public final class FileStamp {
  private final Object fileKey;
  private final long size;
  private final long modified;

  private FileStamp(BasicFileAttributes attributes) {
    this.fileKey = attributes.fileKey();
    this.size = attributes.size();
    this.modified = attributes.lastModifiedTime().toMillis();
  }

  /** The stamp of {@code file} now (links followed). */
  public static FileStamp of(Path file) throws IOException {
    return new FileStamp(Files.readAttributes(file, BasicFileAttributes.class));
  }

  public long size() {
    return size;
  }

  // Written out, not a record: a record's generated equals would bootstrap on te-runtime's cold path.
  @Override
  public boolean equals(Object other) {
    return other instanceof FileStamp that && Objects.equals(fileKey, that.fileKey) && size == that.size
        && modified == that.modified;
  }

  @Override
  public int hashCode() {
    return Objects.hash(fileKey, size, modified);
  }
}
