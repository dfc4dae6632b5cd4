package dev.tewheel.runtime.internal.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.internal.ffm.Libc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The one rule for a folder whose contents may run in this process, on real folders of every kind. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TrustedFolderTest {
  @TempDir Path temp;

  @Test
  void fstatOfAnOpenedFolderAgreesWithTheJdk() throws IOException {
    Path folder = Files.createDirectories(temp.resolve("a"));
    Files.setAttribute(folder, "unix:mode", 01750);
    int fd = Libc.openFolder(Libc.AT_FDCWD, folder.toString());
    try {
      Libc.FileStatus status = Libc.fstat(fd);
      Map<String, Object> jdk = Files.readAttributes(folder, "unix:dev,ino,mode,uid");
      assertEquals(((Number) jdk.get("dev")).longValue(), status.device());
      assertEquals(((Number) jdk.get("ino")).longValue(), status.inode());
      assertEquals(((Number) jdk.get("mode")).intValue(), status.mode());
      assertEquals(((Number) jdk.get("uid")).intValue(), status.uid());
      assertTrue(status.isDirectory());
    } finally {
      Libc.close(fd);
    }
    assertEquals(((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue(), Libc.geteuid());
  }

  @Test
  void openFolderNeverFollowsALinkNorOpensAFile() throws IOException {
    Path folder = Files.createDirectories(temp.resolve("real"));
    Path link = Files.createSymbolicLink(temp.resolve("link"), folder);
    Path file = Files.writeString(temp.resolve("file"), "x");
    assertEquals(-1, Libc.openFolder(Libc.AT_FDCWD, link.toString()), "a link is never followed");
    assertEquals(-1, Libc.openFolder(Libc.AT_FDCWD, file.toString()), "a file is not a folder");
    int fd = Libc.openFolder(Libc.AT_FDCWD, folder.toString());
    assertTrue(fd >= 0);
    Libc.close(fd);
  }

  @Test
  void aPrivateFolderOfThisUserBelowTmpIsTrustedAtItsRealPath() throws Exception {
    Path folder = Files.createDirectories(temp.resolve("mine"));
    Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
    Path viaLink = Files.createSymbolicLink(temp.resolve("above"), temp).resolve("mine");
    assertEquals(folder.toRealPath(), TrustedFolder.require(folder));
    assertEquals(folder.toRealPath(), TrustedFolder.require(viaLink), "links above the folder are resolved");
    Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));
    assertEquals(folder.toRealPath(), TrustedFolder.require(folder), "readable by others is fine, writable is not");
  }

  @Test
  void aFolderOthersCanWriteIsRefusedEvenWhenSticky() throws Exception {
    Path folder = Files.createDirectories(temp.resolve("shared"));
    Files.setAttribute(folder, "unix:mode", 01777);
    TrustedFolder.Refusal refusal = assertThrows(TrustedFolder.Refusal.class, () -> TrustedFolder.require(folder));
    assertEquals(folder, refusal.culprit());
    assertEquals("is writable by other users (rwxrwxrwt), who could replace what is in it before it is loaded",
        refusal.found());
    Files.setAttribute(folder, "unix:mode", 0720);
    assertEquals("is writable by other users (rwx-w----), who could replace what is in it before it is loaded",
        assertThrows(TrustedFolder.Refusal.class, () -> TrustedFolder.require(folder)).found());
  }

  @Test
  void aFolderAboveIsTrustedWhenStickyAndRefusedWhenOthersCanRenameInIt() throws Exception {
    Path above = Files.createDirectories(temp.resolve("above"));
    Path folder = Files.createDirectories(above.resolve("mine"));
    Files.setAttribute(folder, "unix:mode", 0700);
    Files.setAttribute(above, "unix:mode", 01777);
    assertEquals(folder.toRealPath(), TrustedFolder.require(folder));
    Files.setAttribute(above, "unix:mode", 0775);
    TrustedFolder.Refusal refusal = assertThrows(TrustedFolder.Refusal.class, () -> TrustedFolder.require(folder));
    assertEquals(above, refusal.culprit());
    assertEquals(folder + " is not safe: " + above + ", a folder above it, is writable by other users (rwxrwxr-x)"
        + " and not sticky, so they could rename " + folder + " and put another folder in its place. Run chmod go-w "
        + above + " (or chmod +t, as /tmp is), or keep the cache in a folder of your own", refusal.getMessage());
  }

  @Test
  void aSymbolicLinkAsTheFolderIsRefusedNamingWhereItLeads() throws Exception {
    Path real = Files.createDirectories(temp.resolve("real"));
    Path link = Files.createSymbolicLink(temp.resolve("link"), Path.of("real"));
    TrustedFolder.Refusal refusal = assertThrows(TrustedFolder.Refusal.class, () -> TrustedFolder.require(link));
    assertEquals(link, refusal.culprit());
    assertTrue(refusal.found().startsWith("is a symbolic link to real, the folder " + real.toRealPath() + ";"),
        refusal.found());
    assertTrue(refusal.repair().startsWith("Name the folder the link leads to instead"), refusal.repair());
  }

  @Test
  void aFolderOfAnotherUserIsRefusedAndAboveItOnlyRootOrThisUserMayOwn() throws Exception {
    // The folder itself: where the tests run as root (CI), a folder handed to uid 65534; elsewhere a folder that
    // exists and is root's, which is another user's for anyone but root.
    boolean root = Libc.geteuid() == 0;
    Path folder = root ? Files.createDirectories(temp.resolve("nobody")) : Path.of("/usr");
    if (root) {
      Files.setAttribute(folder, "unix:uid", 65534);
    }
    TrustedFolder.Refusal refusal = assertThrows(TrustedFolder.Refusal.class, () -> TrustedFolder.require(folder));
    assertEquals(folder, refusal.culprit());
    assertTrue(refusal.found().startsWith("belongs to uid " + (root ? 65534 : 0) + ", not to this user (uid "
        + Libc.geteuid() + ")"), refusal.found());
    if (root) {
      Path below = Files.createDirectories(folder.resolve("mine"));
      Files.setAttribute(folder, "unix:mode", 0755);
      TrustedFolder.Refusal above = assertThrows(TrustedFolder.Refusal.class, () -> TrustedFolder.require(below));
      assertEquals(folder, above.culprit());
      assertTrue(above.found().startsWith("belongs to uid 65534 (neither root nor this user, uid 0), who could"
          + " rename " + below), above.found());
    }
  }

  @Test
  void aFolderNotMadeYetIsJudgedByWhatExistsOfItsPath() throws Exception {
    Path above = Files.createDirectories(temp.resolve("above"));
    Path folder = above.resolve("a/b/c");
    assertEquals(Optional.empty(), TrustedFolder.wouldRefuse(folder));
    Files.setAttribute(above, "unix:mode", 0777);
    assertEquals(above, TrustedFolder.wouldRefuse(folder).orElseThrow().culprit());
    assertTrue(Files.notExists(above.resolve("a")), "nothing made");
    assertThrows(NoSuchFileException.class, () -> TrustedFolder.require(folder));
  }
}
