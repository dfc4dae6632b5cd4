package dev.tewheel.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.nccl.NcclUniqueId;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The hand-over of the NCCL unique id between the ranks of one host, and where a rank learns who it is. */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class UniqueIdFileTest {
  private static NcclUniqueId id() {
    byte[] bytes = new byte[NcclUniqueId.BYTES];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (i * 7 + 3);
    }
    return NcclUniqueId.of(bytes);
  }

  @Test
  void rankZeroWritesAnOwnerOnlyFileTheOthersRead(@TempDir Path temp) throws Exception {
    Path file = temp.resolve("id");
    UniqueIdFile.write(file, id());
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    assertEquals(id(), UniqueIdFile.read(file, Duration.ofSeconds(1)));
    assertThrows(FileAlreadyExistsException.class, () -> UniqueIdFile.write(file, id()), "a stale file is named");
  }

  @Test
  void aFileOthersCouldReadIsRefusedBecauseTheIdAdmitsToTheCommunicator(@TempDir Path temp) throws Exception {
    Path file = temp.resolve("id");
    UniqueIdFile.write(file, id());
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    IOException refused = assertThrows(IOException.class, () -> UniqueIdFile.read(file, Duration.ofSeconds(1)));
    assertTrue(refused.getMessage().contains("mode rw-r--r--") && refused.getMessage().contains("rw------- (600)"),
        refused.getMessage());
    Path link = temp.resolve("link");
    Files.createSymbolicLink(link, file);
    IOException symlink = assertThrows(IOException.class, () -> UniqueIdFile.read(link, Duration.ofSeconds(1)));
    assertTrue(symlink.getMessage().contains("not a regular file"), symlink.getMessage());
  }

  @Test
  void aRankWaitingForAnIdThatNeverComesSaysSo(@TempDir Path temp) {
    NoSuchFileException e = assertThrows(NoSuchFileException.class,
        () -> UniqueIdFile.read(temp.resolve("never"), Duration.ofMillis(200)));
    assertTrue(e.getMessage().contains("rank 0 did not write the NCCL unique id"), e.getMessage());
  }

  @Test
  void mpirunsVariablesWinOverTorchrunsAndSeveralRanksNeedAnIdFile() {
    RankEnv mpi = RankEnv.from(Map.of("OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "2",
        "OMPI_COMM_WORLD_LOCAL_RANK", "1", "RANK", "0", "WORLD_SIZE", "4", "TE_EP_ID_FILE", "/run/user/1/id"));
    assertEquals(new RankEnv(1, 2, 1, "OMPI_COMM_WORLD_*", mpi.idFile()), mpi);
    RankEnv torch = RankEnv.from(Map.of("RANK", "3", "WORLD_SIZE", "4", "LOCAL_RANK", "1", "TE_EP_ID_FILE", "/x"));
    assertEquals(3, torch.rank());
    assertEquals(1, torch.localRank());
    IllegalArgumentException noFile = assertThrows(IllegalArgumentException.class,
        () -> RankEnv.from(Map.of("RANK", "0", "WORLD_SIZE", "2")));
    assertTrue(noFile.getMessage().contains("TE_EP_ID_FILE is not set"), noFile.getMessage());
    IllegalArgumentException tooHigh = assertThrows(IllegalArgumentException.class,
        () -> RankEnv.from(Map.of("RANK", "2", "WORLD_SIZE", "2", "TE_EP_ID_FILE", "/x")));
    assertTrue(tooHigh.getMessage().contains("RANK=2 is not below WORLD_SIZE=2"), tooHigh.getMessage());
    assertEquals(1, RankEnv.from(Map.of("RANK", "0", "WORLD_SIZE", "1")).worldSize()); // one rank needs no file
  }
}
