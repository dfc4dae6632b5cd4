package dev.tewheel.core.check;

import dev.tewheel.bundle.io.Sha256;
import dev.tewheel.elf.ByteSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.OptionalInt;

/** One file of a {@link Subject}: where it sits in wheel_lib and where it really is, for messages. */
public interface SubjectFile {
  /** Its path inside wheel_lib, '/'-separated. */
  String path();

  /** Where it really is: a path on disk, or {@code x.whl!path} inside a wheel. */
  String origin();

  /** The file name it was built under (the source's at assemble), whose version suffix checks compare. */
  default String originName() {
    String origin = origin();
    return origin.substring(Math.max(origin.lastIndexOf('/'), origin.lastIndexOf('!')) + 1);
  }

  long size() throws IOException;

  /** Random access to its bytes, for the ELF reader; the caller closes it. */
  ByteSource open() throws IOException;

  /** Its bytes from first to last, for hashing; the caller closes it. */
  InputStream stream() throws IOException;

  /** SHA-256 of its bytes in lower-case hex; a source that already hashes its bytes (a wheel) answers from that. */
  default String sha256() throws IOException {
    try (InputStream in = stream()) {
      return Sha256.hex(Sha256.of(in));
    }
  }

  /** What kind of entry it is where it lives; a planned file is always a regular file. */
  default EntryType type() {
    return EntryType.FILE;
  }

  /** Its permission bits (e.g. 0755) where they are known. */
  default OptionalInt mode() {
    return OptionalInt.empty();
  }

  /** What a wheel_lib entry can be; only regular files belong in a wheel. */
  enum EntryType {
    FILE,
    SYMLINK,
    OTHER
  }

  /** A file on disk, shipped at {@code path}. */
  static SubjectFile onDisk(String path, Path file) {
    return new DiskFile(path, file);
  }
}
