package dev.tewheel.core.jar;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A folder whose files are opened without following a symbolic link anywhere below it: each folder on the way is
 * opened relative to the one before and the file relative to its folder, all with {@code O_NOFOLLOW}
 * ({@link SecureDirectoryStream}, which is {@code openat}). A link swapped in for a folder or a file at any moment
 * makes the open fail; it never leads outside. The folder itself is the one the user named, its own links resolved.
 */
final class ConfinedFolder implements Closeable {
  private final Path root;
  private final SecureDirectoryStream<Path> folder;

  private ConfinedFolder(Path root, SecureDirectoryStream<Path> folder) {
    this.root = root;
    this.folder = folder;
  }

  /**
   * Opens {@code root}.
   *
   * @throws IOException when it cannot be opened, or the platform cannot open files relative to a folder
   */
  static ConfinedFolder open(Path root) throws IOException {
    DirectoryStream<Path> stream = Files.newDirectoryStream(root.toRealPath());
    if (!(stream instanceof SecureDirectoryStream<Path> secure)) {
      stream.close();
      throw new IOException("cannot open the files of " + root + " without following links: this platform's Java"
          + " has no SecureDirectoryStream (openat); jar-wheel-lib runs on Linux");
    }
    return new ConfinedFolder(root, secure);
  }

  /** Where a file of it is, for messages. */
  Path resolve(String relative) {
    return root.resolve(relative);
  }

  /**
   * The regular file at {@code relative} ('/'-separated, no '.' or '..' segment), with its size, opened for reading.
   *
   * @throws IOException naming the file when it is missing, is a symbolic link (or lies under one), or is no regular
   *     file (a FIFO is never opened: it would block)
   */
  Opened openFile(String relative) throws IOException {
    String[] parts = relative.split("/", -1);
    for (String part : parts) {
      if (part.isEmpty() || part.equals(".") || part.equals("..")) {
        throw new IOException(resolve(relative) + ": '" + relative + "' is not a plain path inside " + root);
      }
    }
    List<SecureDirectoryStream<Path>> opened = new ArrayList<>();
    try {
      SecureDirectoryStream<Path> at = folder;
      for (int i = 0; i < parts.length - 1; i++) {
        at = folder(at, parts[i], relative);
        opened.add(at);
      }
      Path name = Path.of(parts[parts.length - 1]);
      BasicFileAttributes attributes;
      try {
        attributes = at.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
            .readAttributes();
      } catch (IOException e) {
        throw new IOException(resolve(relative) + " is missing (" + e.getMessage() + ")", e);
      }
      if (!attributes.isRegularFile()) {
        throw new IOException(resolve(relative) + " is " + (attributes.isSymbolicLink() ? "a symbolic link"
            : attributes.isDirectory() ? "a folder" : "no regular file (a FIFO, socket or device)") + ", not a"
            + " regular file inside " + root + ": no link is followed (it could lead outside the folder)");
      }
      try {
        return new Opened(Channels.newInputStream(at.newByteChannel(name, Set.of(StandardOpenOption.READ,
            LinkOption.NOFOLLOW_LINKS))), attributes.size());
      } catch (IOException e) {
        throw new IOException(resolve(relative) + " could not be opened without following a link ("
            + e.getMessage() + "): it was replaced while being read", e);
      }
    } finally {
      for (SecureDirectoryStream<Path> stream : opened) {
        stream.close();
      }
    }
  }

  private SecureDirectoryStream<Path> folder(SecureDirectoryStream<Path> at, String part, String relative)
      throws IOException {
    try {
      return at.newDirectoryStream(Path.of(part), LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      throw new IOException(resolve(relative) + " lies under " + part + ", which is missing or no folder inside "
          + root + " (" + e.getMessage() + "): no link is followed (it could lead outside the folder)", e);
    }
  }

  /** A file opened for reading and the size it had when it was opened; close it when done. */
  record Opened(InputStream in, long size) implements Closeable {
    @Override
    public void close() throws IOException {
      in.close();
    }
  }

  @Override
  public void close() throws IOException {
    folder.close();
  }
}
