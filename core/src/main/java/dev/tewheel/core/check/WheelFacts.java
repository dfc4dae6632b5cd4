package dev.tewheel.core.check;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the wheel-level checks need to know of a .whl, read in place: its file name and every zip entry as the
 * archive records it. Implemented by the wheel reader; kept here so that checks do not depend on it.
 */
public interface WheelFacts {
  /** The .whl's path, for messages. */
  String path();

  /** The .whl's file name, e.g. transformer_engine_cu12-2.9.0-py3-none-manylinux_2_28_x86_64.whl. */
  String fileName();

  /** Every entry in archive order, directories included, duplicates kept. */
  List<Entry> entries();

  /** A small text entry (RECORD, WHEEL, METADATA) as UTF-8, at most {@code maxBytes}; empty when absent. */
  Optional<String> text(String name, int maxBytes) throws IOException;

  /** SHA-256 of an entry's uncompressed bytes, urlsafe base64 without padding, as RECORD writes it. */
  String recordDigest(String name) throws IOException;

  /**
   * One zip entry.
   *
   * @param name the name as stored
   * @param size the uncompressed size the archive declares
   * @param compressedSize the stored size
   * @param directory whether it is a folder entry
   * @param symlink whether its unix mode marks a symbolic link
   * @param mode the unix permission bits when the archive records them
   */
  record Entry(String name, long size, long compressedSize, boolean directory, boolean symlink, OptionalInt mode) {}
}
