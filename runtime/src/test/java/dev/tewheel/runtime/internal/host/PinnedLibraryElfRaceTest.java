package dev.tewheel.runtime.internal.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.elf.ElfFile;
import dev.tewheel.loader.ElfFiles;
import dev.tewheel.runtime.OtherUsers;
import dev.tewheel.standins.Gcc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read of a library by its path takes the stamp and the bytes in two steps; were the path renamed in between, the
 * cache held one file's stamp beside another file's facts. te-runtime's SONAME check of a library it opened (NCCL:
 * "is this libnccl.so.2?") read through that cache, so a foreign libnccl.so.3 swapped in could pass as the genuine
 * libnccl.so.2 and run its constructor (BytesLoadedAreBytesCheckedTest's race found it once in 20 fresh JVMs). Here,
 * in one process and thousands of rounds, each round reads the path (as the search and the prediction do) and then
 * asks the cache about a descriptor opened on that path, while a thread keeps exchanging the two files: the answer
 * for the descriptor is always its own bytes' SONAME.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PinnedLibraryElfRaceTest {
  private static final int ROUNDS = 20_000;

  @TempDir Path temp;

  @Test
  void whatAnOpenedLibraryIsComesFromItsOwnBytesWhateverAPathReadCachedBefore() throws Throwable {
    Path genuine = library("libnccl.so.2", temp.resolve("libnccl.so.2"));
    Path foreign = library("libnccl.so.3", temp.resolve("foreign.so"));
    assertEquals(Files.size(genuine), Files.size(foreign), "one size, so that only the bytes tell them apart");
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> swapFailed = new AtomicReference<>();
    Thread swapper = new Thread(() -> {
      try {
        while (!stop.get()) {
          OtherUsers.exchange(genuine, foreign);
        }
      } catch (Throwable t) {
        swapFailed.set(t);
      }
    }, "hostile swapper");
    int[] seen = new int[2];
    swapper.start();
    try {
      for (int round = 0; round < ROUNDS; round++) {
        try {
          ElfFiles.readWithoutSymbols(genuine);
        } catch (java.io.IOException e) {
          // a read torn by the swap fails; only what is cached matters here
        }
        try (PinnedLibrary opened = PinnedLibrary.open(genuine, true)) {
          Optional<String> truth = ElfFile.readWithoutSymbols(opened.bytes()).soname();
          assertEquals(truth, opened.soname(), "round " + round + ": the cache answered for other bytes than the"
              + " descriptor's");
          seen[truth.equals(Optional.of("libnccl.so.2")) ? 0 : 1]++;
        }
      }
    } finally {
      stop.set(true);
      swapper.join();
    }
    assertEquals(null, swapFailed.get(), "the swapper kept swapping");
    assertTrue(seen[0] > 0 && seen[1] > 0, "the race opened both files: " + seen[0] + " genuine, " + seen[1]
        + " foreign");
  }

  private static Path library(String soname, Path out) throws Exception {
    Path c = Files.writeString(Files.createTempDirectory("race-library").resolve("library.c"),
        "int ncclGetVersion(int *v) { *v = 23004; return 0; }\n");
    Gcc.run(List.of("-shared", "-fPIC", "-O1", "-o", out.toString(), "-Wl,-soname," + soname, c.toString()));
    return out;
  }
}
