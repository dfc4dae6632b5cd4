package dev.tewheel.core.check;

import dev.tewheel.elf.ByteSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A file on disk shipped at a path inside wheel_lib; a folder's entries extend it with what they know more.
 *
 * <p>Only a regular file is ever opened: opening a FIFO waits for a writer forever, a device or socket is no file
 * to ship. The type is read just before each open; a file that is something else is an IOException that says what
 * it is, which the check that wanted its bytes reports. Assemble's inputs may be symbolic links to their files (NCCL
 * EP's {@code libnccl_ep.so -> libnccl_ep.so.0}), so links are followed unless {@code followLinks} is false, as for a
 * folder given to verify, where a link is itself the finding.
 */
public class DiskFile implements SubjectFile {
  private final String path;
  private final Path file;
  private final LinkOption[] links;

  public DiskFile(String path, Path file) {
    this(path, file, true);
  }

  protected DiskFile(String path, Path file, boolean followLinks) {
    this.path = path;
    this.file = file;
    this.links = followLinks ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
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
    return regularFile().size();
  }

  @Override
  public ByteSource open() throws IOException {
    regularFile();
    if (links.length == 0) {
      return ByteSource.open(file);
    }
    // Opened as checked: a link swapped in after the check makes the open fail, never leads elsewhere.
    java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file, java.util.Set.of(
        java.nio.file.StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
    try {
      return ByteSource.open(channel, file.toString());
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  @Override
  public InputStream stream() throws IOException {
    regularFile();
    return Files.newInputStream(file, links);
  }

  /** Its attributes, when it is a regular file; else an IOException naming what it is. */
  private BasicFileAttributes regularFile() throws IOException {
    BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class, links);
    if (!attributes.isRegularFile()) {
      throw new IOException(file + " is not a regular file (" + kind(attributes) + "); only regular files are"
          + " read");
    }
    return attributes;
  }

  /** What a non-regular file is, in words. */
  private String kind(BasicFileAttributes attributes) {
    if (attributes.isSymbolicLink()) {
      return "a symbolic link";
    }
    if (attributes.isDirectory()) {
      return "a folder";
    }
    try {
      Object mode = Files.getAttribute(file, "unix:mode", links);
      if (mode instanceof Integer bits) {
        switch (bits & 0170000) {
          case 0010000: return "a FIFO";
          case 0140000: return "a socket";
          case 0020000: return "a character device";
          case 0060000: return "a block device";
          default: break;
        }
      }
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      // the generic word below
    }
    return "a special file";
  }

  @Override
  public String toString() {
    return path + " <- " + file;
  }
}
