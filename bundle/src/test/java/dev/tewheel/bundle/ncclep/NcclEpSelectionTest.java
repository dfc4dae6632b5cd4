package dev.tewheel.bundle.ncclep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.elf.ElfMachine;
import dev.tewheel.standins.StandIns;
import dev.tewheel.standins.StandIns.Defect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.io.RandomAccessFile;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The selection rule decides by reading the ELF file: SONAME major and machine, never the file name alone. */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NcclEpSelectionTest {
  @TempDir Path temp;
  private Path fifo;

  /** Opening a FIFO read-write never blocks and lets a reader stuck in open(2) go on, so no thread is left hanging. */
  @AfterEach
  void releaseTheFifo() throws Exception {
    if (fifo != null) {
      new RandomAccessFile(fifo.toFile(), "rw").close();
    }
  }

  @Test
  void aFifoNamedLikeALibraryIsRejectedWithoutBeingOpened() throws Exception {
    Path folder = Files.createDirectories(temp.resolve("lib"));
    Files.copy(StandIns.ncclEpLibrary(), folder.resolve("libnccl_ep.so.0.1.0"));
    fifo = folder.resolve("libnccl_ep.so.0.9.9");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
    assertEquals(0, mkfifo.waitFor(), "mkfifo (coreutils) is needed to make the FIFO");
    Files.createSymbolicLink(folder.resolve("libnccl_ep.so.0"), Path.of("libnccl_ep.so.0.9.9"));
    NcclEpSelection selection =
        NcclEpSelection.select(NcclEpSelection.candidatesIn(folder), 0, ElfMachine.X86_64, null);
    assertEquals(folder.resolve("libnccl_ep.so.0.1.0"), selection.chosen().orElseThrow().file());
    List<String> reasons = selection.candidates().stream().map(NcclEpCandidate::reason).toList();
    String fifoReason = "not a regular file but a FIFO: only regular files are opened";
    assertEquals(List.of(fifoReason, "SONAME libnccl_ep.so.0 matches major 0", fifoReason), reasons);
  }

  @Test
  void aSymlinkLoopNamedLikeALibraryIsRejectedAsALoop() throws Exception {
    Path folder = Files.createDirectories(temp.resolve("lib"));
    Files.createSymbolicLink(folder.resolve("libnccl_ep.so"), Path.of("libnccl_ep.so.0"));
    Files.createSymbolicLink(folder.resolve("libnccl_ep.so.0"), Path.of("libnccl_ep.so"));
    NcclEpSelection selection =
        NcclEpSelection.select(NcclEpSelection.candidatesIn(folder), 0, ElfMachine.X86_64, null);
    assertEquals(Optional.empty(), selection.chosen());
    assertEquals(List.of("a symbolic link loop", "a symbolic link loop"),
        selection.candidates().stream().map(NcclEpCandidate::reason).toList());
  }

  @Test
  void acceptsTheRequiredMajorAndRejectsAnotherWithTheReason() throws Exception {
    Path folder = Files.createDirectories(temp.resolve("lib"));
    Files.copy(StandIns.ncclEpLibrary(), folder.resolve("libnccl_ep.so.0.1.0"));
    Files.copy(StandIns.defect(Defect.NCCL_EP_MAJOR_1_HOME).resolve("lib/libnccl_ep.so.1.0.0"),
        folder.resolve("libnccl_ep.so.1.0.0"));
    NcclEpSelection selection =
        NcclEpSelection.select(NcclEpSelection.candidatesIn(folder), 0, ElfMachine.X86_64, null);
    assertEquals(folder.resolve("libnccl_ep.so.0.1.0"), selection.chosen().orElseThrow().file());
    NcclEpCandidate other = selection.candidates().get(1);
    assertFalse(other.accepted());
    assertEquals("SONAME libnccl_ep.so.1, expected libnccl_ep.so.0 (NCCL EP major 0)", other.reason());
  }

  @Test
  void aFileNamedForTheRightMajorIsStillJudgedByItsSoname() throws Exception {
    // The flaw found in review: a glob of libnccl_ep.so* said yes to a library the loader then refused.
    Path folder = Files.createDirectories(temp.resolve("lib"));
    Files.copy(StandIns.defect(Defect.NCCL_EP_MAJOR_1_HOME).resolve("lib/libnccl_ep.so.1.0.0"),
        folder.resolve("libnccl_ep.so.0"));
    NcclEpSelection selection =
        NcclEpSelection.select(NcclEpSelection.candidatesIn(folder), 0, ElfMachine.X86_64, null);
    assertEquals(Optional.empty(), selection.chosen());
  }

  @Test
  void rejectsOtherMachinesNonElfFilesAndDanglingLinks() throws Exception {
    Path folder = Files.createDirectories(temp.resolve("lib"));
    Files.copy(StandIns.aarch64("libnccl_ep.so.0.1.0"), folder.resolve("libnccl_ep.so.0.1.0"));
    Files.writeString(folder.resolve("libnccl_ep.so.0"), "not a library");
    Files.createSymbolicLink(folder.resolve("libnccl_ep.so"), Path.of("libnccl_ep.so.9"));
    NcclEpSelection selection =
        NcclEpSelection.select(NcclEpSelection.candidatesIn(folder), 0, ElfMachine.X86_64, null);
    assertEquals(Optional.empty(), selection.chosen());
    List<String> reasons = selection.candidates().stream().map(NcclEpCandidate::reason).toList();
    assertEquals("dangling symlink", reasons.get(0));
    assertTrue(reasons.get(1).startsWith("not a readable ELF file"), reasons.get(1));
    assertEquals("built for aarch64, this process runs on x86_64", reasons.get(2));
  }

  @Test
  void prefersTheManifestsFileThenTheHighestVersion() throws Exception {
    Path folder = Files.createDirectories(temp.resolve("lib"));
    Files.copy(StandIns.ncclEpLibrary(), folder.resolve("libnccl_ep.so.0.1.0"));
    Files.copy(StandIns.ncclEpLibrary(), folder.resolve("libnccl_ep.so.0.2.0"));
    Files.copy(StandIns.ncclEpLibrary(), folder.resolve("libnccl_ep.so"));
    List<Path> candidates = NcclEpSelection.candidatesIn(folder);
    assertEquals(folder.resolve("libnccl_ep.so.0.2.0"),
        NcclEpSelection.select(candidates, 0, null, null).chosen().orElseThrow().file());
    assertEquals(folder.resolve("libnccl_ep.so"),
        NcclEpSelection.select(candidates, 0, null, folder.resolve("libnccl_ep.so")).chosen().orElseThrow().file());
  }
}
