package dev.tewheel.core.check;

import dev.tewheel.elf.ByteSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** A file on disk shipped at a path inside wheel_lib; a folder's entries extend it with what they know more. */
public class DiskFile implements SubjectFile {
  private final String path;
  private final Path file;

  public DiskFile(String path, Path file) {
    this.path = path;
    this.file = file;
  }

  @Override
  public String path() {
    return path;
  }

  /** Where it is on disk. */
  public Path file() {
    return file;
  }

  @Override
  public String origin() {
    return file.toString();
  }

  @Override
  public long size() throws IOException {
    return Files.size(file);
  }

  @Override
  public ByteSource open() throws IOException {
    return ByteSource.open(file);
  }

  @Override
  public InputStream stream() throws IOException {
    return Files.newInputStream(file);
  }

  @Override
  public String toString() {
    return path + " <- " + file;
  }
}
