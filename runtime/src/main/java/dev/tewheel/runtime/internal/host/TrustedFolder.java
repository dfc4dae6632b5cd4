package dev.tewheel.runtime.internal.host;

import dev.tewheel.runtime.internal.ffm.Libc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The one rule for a folder whose contents te-runtime lets run in this process (the class-path bundle cache, NCCL
 * EP's JIT cache, and with {@code te.verifyDigests} the folder TE's core library is loaded from by path): no other
 * user can change what is in it, now or later ({@link #requireFile} for one file).
 * <ul>
 *   <li>the folder itself belongs to this user (the effective uid), is not writable by group or others, and is not a
 *       symbolic link;</li>
 *   <li>every folder above it, up to {@code /}, belongs to root or to this user and is not writable by group or
 *       others, unless it is sticky (as {@code /tmp} is): there others may add entries but never rename or remove
 *       this user's, so they cannot put another folder in its place;</li>
 *   <li>symbolic links above the folder are resolved first and the real path is checked and returned; callers use
 *       that path, so changing a link afterwards changes nothing.</li>
 * </ul>
 * The check is made on what was opened, not by name: each folder is opened with {@code O_DIRECTORY | O_NOFOLLOW}
 * relative to the descriptor of the one above and {@code fstat}ed, and at the end the path must still lead to the
 * folder checked (same st_dev and st_ino), so a swap while checking is caught. After a folder passed, no other user
 * can swap it or anything above it: the rule itself closes the window between check and use.
 */
public final class TrustedFolder {
  /** The mode te-runtime makes its own folders with (the class-path cache, the JIT cache): the owner's alone. */
  public static final FileAttribute<Set<PosixFilePermission>> PRIVATE =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
  private static final int GROUP_OR_OTHERS_WRITE = 0022;
  private static final int STICKY = 01000;

  private TrustedFolder() {}

  /** Why a folder is not trusted: the folder at fault, what was found there, and the repair. */
  public static final class Refusal extends Exception {
    private static final long serialVersionUID = 1L;
    private final Path culprit;
    private final String found;
    private final String repair;

    Refusal(Path checked, Path culprit, String found, String repair) {
      super(checked + (checked.equals(culprit) ? "" : " is not safe: " + culprit + ", a folder above it,") + " " + found
          + ". " + repair);
      this.culprit = culprit;
      this.found = found;
      this.repair = repair;
    }

    /** The sentence with {@code noun} before the folder ("the cache folder /x is ..."), ending in the repair. */
    public String describe(String noun) {
      return noun + " " + getMessage();
    }

    /** The folder at fault: the one checked or one above it. */
    public Path culprit() {
      return culprit;
    }

    /** What was found, e.g. {@code is writable by other users (rwxrwxrwx), who could ...}. */
    public String found() {
      return found;
    }

    /** What to do, without a final full stop so that a caller can add its own alternative. */
    public String repair() {
      return repair;
    }
  }

  /**
   * Checks an existing folder by the rule above.
   *
   * @return the folder's real path (links above it resolved), which the caller uses from then on
   * @throws Refusal when the folder or one above it breaks the rule
   * @throws IOException when it cannot be checked (missing, unreadable); nothing is trusted then
   */
  public static Path require(Path folder) throws Refusal, IOException {
    Path absolute = folder.toAbsolutePath().normalize();
    Path parent = absolute.getParent();
    if (parent == null) {
      return walk(absolute, absolute, true);
    }
    Path real = parent.toRealPath().resolve(absolute.getFileName().toString());
    return walk(absolute, real, true);
  }

  /**
   * Whether {@code folder} could be used by the rule, without making it: the folder itself when it exists, else the
   * part of its path that exists, as the folders above the one that would be made.
   *
   * @return the refusal, or empty when the folder passes or could be made to pass by creating it owner-only
   */
  public static Optional<Refusal> wouldRefuse(Path folder) throws IOException {
    Path absolute = folder.toAbsolutePath().normalize();
    try {
      if (Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
        require(absolute);
        return Optional.empty();
      }
      Path existing = absolute.getParent();
      while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
        existing = existing.getParent();
      }
      if (existing != null) {
        walk(absolute, existing.toRealPath(), false);
      }
      return Optional.empty();
    } catch (Refusal refusal) {
      return Optional.of(refusal);
    }
  }

  /**
   * The same rule for one file te-runtime loads from a bundle it vets: no other user can rewrite it in place after
   * the check. It belongs to this user or root and is not writable by group or others.
   *
   * @param status what fstat said of the opened file
   */
  public static void requireFile(Path file, Libc.FileStatus status) throws Refusal {
    int me = Libc.geteuid();
    if (status.uid() != 0 && status.uid() != me) {
      throw new Refusal(file, file, "belongs to uid " + status.uid() + " (neither root nor this user, uid " + me
          + "), who could rewrite it after te-runtime checked it", "Have root or its owner give it to you (chown),"
          + " or copy the bundle to a folder of your own");
    }
    if ((status.mode() & GROUP_OR_OTHERS_WRITE) != 0) {
      throw new Refusal(file, file, "is writable by other users (" + permissions(status.mode()) + "), who could"
          + " rewrite it after te-runtime checked it", "Run chmod go-w " + file);
    }
  }

  /**
   * Opens {@code real} one folder at a time from {@code /}, never following a link, and checks each.
   *
   * @param checked the folder as the caller named it, for messages
   * @param last whether the last folder of {@code real} is the folder itself (else all are folders above it)
   */
  private static Path walk(Path checked, Path real, boolean last) throws Refusal, IOException {
    int me = Libc.geteuid();
    List<String> names = new ArrayList<>();
    for (Path name : real) {
      names.add(name.toString());
    }
    Path at = real.getRoot();
    int fd = Libc.openFolder(Libc.AT_FDCWD, "/");
    if (fd < 0) {
      throw new IOException("could not open /");
    }
    try {
      Libc.FileStatus status = Libc.fstat(fd);
      checkAbove(checked, at, status, me, names.isEmpty() ? checked : at.resolve(names.get(0)));
      for (int i = 0; i < names.size(); i++) {
        boolean target = last && i == names.size() - 1;
        Path next = at.resolve(names.get(i));
        int opened = Libc.openFolder(fd, names.get(i));
        if (opened < 0) {
          // Refused either way; the file system by name says why, for the message.
          if (!Files.exists(next, LinkOption.NOFOLLOW_LINKS)) {
            throw new NoSuchFileException(next.toString());
          }
          boolean folder = Files.isDirectory(next, LinkOption.NOFOLLOW_LINKS);
          if (folder) {
            throw new IOException("could not open the folder " + next + " (not permitted?), so it cannot be checked");
          }
          if (!target) {
            throw new Refusal(checked, next, "changed while te-runtime checked it (it is now a symbolic link or"
                + " not a folder)", "Find out who else changes " + next);
          }
          throw notAFolder(checked, next);
        }
        Libc.close(fd);
        fd = opened;
        at = next;
        status = Libc.fstat(fd);
        if (target) {
          checkFolder(checked, at, status, me);
        } else {
          checkAbove(checked, at, status, me, i + 1 < names.size() ? at.resolve(names.get(i + 1)) : checked);
        }
      }
      // The name must still lead to what was opened and checked.
      if (!status.isAt(at, LinkOption.NOFOLLOW_LINKS)) {
        throw new Refusal(checked, at, "was replaced by another folder while te-runtime checked it",
            "Find out who else changes " + at);
      }
      return at;
    } finally {
      Libc.close(fd);
    }
  }

  private static Refusal notAFolder(Path checked, Path file) {
    if (Files.isSymbolicLink(file)) {
      String target;
      try {
        Path link = Files.readSymbolicLink(file);
        Path real = Files.isDirectory(file) ? file.toRealPath() : null;
        target = link + (real == null || real.equals(link) ? "" : ", the folder " + real);
      } catch (IOException e) {
        target = "(unreadable: " + e.getMessage() + ")";
      }
      return new Refusal(checked, file, "is a symbolic link to " + target + "; te-runtime loads code only from a"
          + " real folder, since whoever can change a link chooses what is loaded through it",
          "Name the folder the link leads to instead, once you have checked that it is yours and private, or"
              + " replace the link by a folder");
    }
    return new Refusal(checked, file, "is not a folder", "Remove it");
  }

  /** The folder itself: this user's, not writable by group or others. */
  private static void checkFolder(Path checked, Path folder, Libc.FileStatus status, int me) throws Refusal {
    if (status.uid() != me) {
      throw new Refusal(checked, folder, "belongs to uid " + status.uid() + ", not to this user (uid " + me
          + "); te-runtime loads code only from a folder of its own user", "It was not made for this user: have"
          + " its owner or root remove it");
    }
    if ((status.mode() & GROUP_OR_OTHERS_WRITE) != 0) {
      throw new Refusal(checked, folder, "is writable by other users (" + permissions(status.mode()) + "), who"
          + " could replace what is in it before it is loaded", "Run chmod go-w " + folder + " (and remove what"
          + " you did not put there)");
    }
  }

  /** A folder above: root's or this user's, not writable by group or others unless sticky. */
  private static void checkAbove(Path checked, Path folder, Libc.FileStatus status, int me, Path child)
      throws Refusal {
    if (status.uid() != 0 && status.uid() != me) {
      throw new Refusal(checked, folder, "belongs to uid " + status.uid() + " (neither root nor this user, uid " + me
          + "), who could rename " + child + " and put another folder in its place", "Keep the cache in a folder"
          + " of your own");
    }
    if ((status.mode() & GROUP_OR_OTHERS_WRITE) != 0 && (status.mode() & STICKY) == 0) {
      throw new Refusal(checked, folder, "is writable by other users (" + permissions(status.mode()) + ") and not"
          + " sticky, so they could rename " + child + " and put another folder in its place", "Run chmod go-w "
          + folder + " (or chmod +t, as /tmp is), or keep the cache in a folder of your own");
    }
  }

  /** st_mode's permission bits as ls shows them: {@code rwxrwxrwt}. */
  static String permissions(int mode) {
    StringBuilder text = new StringBuilder();
    String letters = "rwxrwxrwx";
    for (int bit = 0; bit < 9; bit++) {
      text.append((mode & (0400 >> bit)) != 0 ? letters.charAt(bit) : '-');
    }
    if ((mode & STICKY) != 0) {
      text.setCharAt(8, (mode & 01) != 0 ? 't' : 'T');
    }
    return text.toString();
  }
}
