package dev.tewheel.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** One open source read by several threads at once gives every thread the same facts, and counts every byte. */
class SharedSourceTest {
  @Test
  void concurrentReadsOfOneSource() throws Exception {
    Facts expected = Facts.of(ElfFile.read(StandIns.ncclEpLibrary()));
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (CountingByteSource file = new CountingByteSource(ByteSource.open(StandIns.ncclEpLibrary()));
        CountingByteSource memory = new CountingByteSource(
            ByteSource.of(Files.readAllBytes(StandIns.ncclEpLibrary()), "memory"))) {
      long oneReading = bytesOfOneReading(memory);
      List<Future<Facts>> results = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        CountingByteSource source = i % 2 == 0 ? file : memory;
        results.add(pool.submit((Callable<Facts>) () -> Facts.of(ElfFile.read(source))));
      }
      for (Future<Facts> result : results) {
        assertEquals(expected, result.get());
      }
      assertEquals(100 * oneReading, file.bytesRead());
      assertEquals(101 * oneReading, memory.bytesRead());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void oneElfFileSharedByThreads() throws Exception {
    ElfFile elf = ElfFile.read(SystemLibraries.libc());
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<List<Object>>> results = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        results.add(pool.submit(() -> List.of(elf.definedSymbolNames(), elf.undefinedSymbolNames())));
      }
      List<Object> first = results.get(0).get();
      for (Future<List<Object>> result : results) {
        assertEquals(first, result.get());
      }
      assertEquals(Facts.of(elf).defined(), first.get(0));
    } finally {
      pool.shutdownNow();
    }
  }

  private static long bytesOfOneReading(CountingByteSource source) throws Exception {
    ElfFile.read(source);
    return source.bytesRead();
  }
}
