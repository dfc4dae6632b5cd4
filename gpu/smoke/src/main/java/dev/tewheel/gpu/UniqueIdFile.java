package dev.tewheel.gpu;

import dev.tewheel.runtime.nccl.NcclUniqueId;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

/**
 * The file through which rank 0 hands the NCCL unique id to the other ranks of one host. Whoever can read the id can
 * join the communicator, so the file is owner-only: rank 0 writes it under a temporary name created with mode 600
 * and renames it into place (a reader never sees half an id), and a reader refuses a file that is not its user's or
 * that others could read or write. Rank 0 deletes it once every rank has joined.
 */
final class UniqueIdFile {
  static final Set<PosixFilePermission> OWNER_ONLY = EnumSet.of(PosixFilePermission.OWNER_READ,
      PosixFilePermission.OWNER_WRITE);

  private UniqueIdFile() {}

  /** Rank 0: writes {@code id} to {@code file}, which must not exist yet (a stale file from an earlier run is named). */
  static void write(Path file, NcclUniqueId id) throws IOException {
    Path target = file.toAbsolutePath();
    if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
      throw new FileAlreadyExistsException(target.toString(), null, "the NCCL unique id file exists already (left by"
          + " an earlier run?); remove it, or name another with " + RankEnv.ID_FILE);
    }
    Path temporary = target.resolveSibling(target.getFileName() + ".tmp-" + ProcessHandle.current().pid());
    Files.createFile(temporary, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
    try {
      Files.writeString(temporary, id.toHex() + "\n", StandardCharsets.US_ASCII);
      Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  /** The other ranks: waits up to {@code timeout} for {@code file}, checks that it is owner-only, reads the id. */
  static NcclUniqueId read(Path file, Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    Path target = file.toAbsolutePath();
    while (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
      if (System.nanoTime() > deadline) {
        throw new NoSuchFileException(target.toString(), null, "rank 0 did not write the NCCL unique id within "
            + timeout.toSeconds() + " s");
      }
      Thread.sleep(20);
    }
    checkOwnerOnly(target);
    String text = Files.readString(target, StandardCharsets.US_ASCII).strip();
    if (text.length() != 2 * NcclUniqueId.BYTES) {
      throw new IOException(target + ": holds " + text.length() + " characters; an NCCL unique id is "
          + 2 * NcclUniqueId.BYTES + " hex digits");
    }
    try {
      return NcclUniqueId.fromHex(text);
    } catch (IllegalArgumentException e) {
      throw new IOException(target + ": not an NCCL unique id in hex (" + e.getMessage() + ")");
    }
  }

  /** Refuses a symlink, another user's file, or one whose mode gives anything to group or others. */
  static void checkOwnerOnly(Path file) throws IOException {
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException(file + ": the NCCL unique id file is not a regular file (a symlink?); refusing it");
    }
    UserPrincipal owner = Files.getOwner(file, LinkOption.NOFOLLOW_LINKS);
    UserPrincipal me = file.getFileSystem().getUserPrincipalLookupService()
        .lookupPrincipalByName(System.getProperty("user.name"));
    Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS);
    if (!owner.equals(me) || !OWNER_ONLY.containsAll(mode)) {
      throw new IOException(file + ": the NCCL unique id file has owner " + owner.getName() + " and mode "
          + PosixFilePermissions.toString(mode) + "; it must be " + me.getName() + "'s with mode rw------- (600),"
          + " since whoever reads the id can join the communicator");
    }
  }
}
