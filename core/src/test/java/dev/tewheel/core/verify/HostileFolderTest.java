package dev.tewheel.core.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.check.DiskFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A wheel_lib folder given to verify may hold anything: verify opens only regular files, so a FIFO (whose open would
 * wait for a writer forever), a socket or a link loop is reported, never read.
 */
class HostileFolderTest {
  @TempDir Path temp;
  private Path wheelLib;

  @BeforeEach
  void assemble() throws Exception {
    wheelLib = temp.resolve("wheel_lib");
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(),
        wheelLib));
  }

  private static void mkfifo(Path path) throws Exception {
    Process process = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    assertTrue(process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0, "mkfifo " + path);
  }

  /** The test thread may block in open(2) of a FIFO on today's code: it runs apart so the timeout can fail it. */
  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aFifoInAWheelLibFolderIsReportedAndNeverOpened() throws Exception {
    Path library = wheelLib.resolve("libnccl_ep.so");
    Files.delete(library);
    mkfifo(library);
    Path header = wheelLib.resolve("nccl_ep/include/nccl_ep/device/macros.cuh");
    Files.delete(header);
    mkfifo(header);
    Path loopA = wheelLib.resolve("nccl_ep/include/loop-a");
    Files.createSymbolicLink(loopA, Path.of("loop-b"));
    Files.createSymbolicLink(wheelLib.resolve("nccl_ep/include/loop-b"), Path.of("loop-a"));

    GateReport report = new Verifier().verify(VerifyRequest.folder(wheelLib)
        .withPlatformTag("manylinux_2_34_x86_64"));

    assertFalse(report.passed());
    List<Finding> types = report.findings().stream().filter(f -> f.checkId().equals("LAYOUT-FILE-TYPES")).toList();
    assertEquals(List.of(library.toString(), header.toString(), loopA.toString(),
        wheelLib.resolve("nccl_ep/include/loop-b").toString()).stream().sorted().toList(),
        types.stream().map(Finding::file).sorted().toList(), types.toString());
    // Checks that needed the library's bytes say they could not read them, and why.
    assertTrue(report.findings().stream().anyMatch(f -> f.severity() == Severity.ERROR
        && f.found().contains(library + " is not a regular file (a FIFO); only regular files are read")),
        report.findings().toString());
  }

  /** Assemble's inputs may be links (libnccl_ep.so -> libnccl_ep.so.0): followed, but only to a regular file. */
  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aLinkToAFifoIsFollowedButNeverOpened() throws Exception {
    Path fifo = temp.resolve("fifo");
    mkfifo(fifo);
    Path link = Files.createSymbolicLink(temp.resolve("libnccl_ep.so"), fifo);
    DiskFile file = new DiskFile("libnccl_ep.so", link);
    for (org.junit.jupiter.api.function.Executable open : List.<org.junit.jupiter.api.function.Executable>of(
        file::open, file::stream, file::size)) {
      IOException e = assertThrows(IOException.class, open);
      assertEquals(link + " is not a regular file (a FIFO); only regular files are read", e.getMessage());
    }
    assertEquals(Files.size(StandIns.ncclEpLibrary()),
        new DiskFile("libnccl_ep.so", Files.createSymbolicLink(temp.resolve("ok.so"), StandIns.ncclEpLibrary()))
            .size());
  }
}
