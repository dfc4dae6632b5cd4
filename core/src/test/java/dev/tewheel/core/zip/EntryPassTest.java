package dev.tewheel.core.zip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.io.Sha256;
import dev.tewheel.core.wheel.TestWheel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 2, unit = TimeUnit.MINUTES)
class EntryPassTest {
  @TempDir Path temp;

  private Path wheelWithLargeLibraries(int count, int megabytes) throws Exception {
    TestWheel wheel = new TestWheel();
    java.util.Random random = new java.util.Random(25);
    for (int i = 0; i < count; i++) {
      byte[] bytes = new byte[megabytes << 20];
      random.nextBytes(bytes);
      Path file = Files.write(temp.resolve("lib" + i + ".so"), bytes);
      wheel.add(TestWheel.PREFIX + "/lib" + i + ".so", file);
    }
    return wheel.write(temp);
  }

  private static long passThreads() {
    return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
        .filter(t -> t.getName().startsWith("te-wheel-read") || t.getName().startsWith("te-wheel-inflate")).count();
  }

  @Test
  void everyEntryReadInParallelHasTheDigestReadingItAloneGives() throws Exception {
    Path whl = wheelWithLargeLibraries(3, 6); // above the size at which hashing moves to its own thread
    try (WheelArchive alone = WheelArchive.open(whl); WheelArchive passed = WheelArchive.open(whl)) {
      passed.readAll(i -> true);
      for (WheelArchive.Entry entry : alone.entries()) {
        assertArrayEquals(alone.sha256(entry.name()), passed.sha256(entry.name()), entry.name());
        assertEquals(alone.crcProblem(entry.name()), passed.crcProblem(entry.name()), entry.name());
        assertEquals(entry.size(), passed.bytesInflated(entry.name()), entry.name() + " inflated once");
      }
      assertArrayEquals(Sha256.of(temp.resolve("lib1.so")), passed.sha256(TestWheel.PREFIX + "/lib1.so"));
    }
  }

  @Test
  void closingTheArchiveStopsItsPassAndLeavesNoThreadReadingIt() throws Exception {
    Path whl = wheelWithLargeLibraries(2, 24);
    long start = System.nanoTime();
    try (WheelArchive archive = WheelArchive.open(whl)) {
      archive.readAll(i -> true); // returns at once; closing right away must wait for, and stop, the pass
    }
    assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) < 60, "close waited too long");
    // The pass's pools end their threads once its last entry is done (stopped here): none may linger.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (passThreads() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(0, passThreads(), "threads of the pass still alive after close");
  }
}
