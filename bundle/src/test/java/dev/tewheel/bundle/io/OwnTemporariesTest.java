package dev.tewheel.bundle.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 1, unit = TimeUnit.MINUTES)
class OwnTemporariesTest {
  private static final String RANDOM = "0123456789abcdef";

  @TempDir Path temp;

  private static long deadPid() throws Exception {
    Process done = new ProcessBuilder("true").start();
    assertEquals(0, done.waitFor());
    return done.pid();
  }

  private static List<String> names(Path folder) throws Exception {
    try (Stream<Path> entries = Files.list(folder)) {
      return entries.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void onlyADeadProcesssTemporariesOfThatTargetAreRemoved() throws Exception {
    Path target = temp.resolve("report.json");
    long dead = deadPid();
    Process alive = new ProcessBuilder("cat").start(); // waits on its stdin until we close it
    try {
      Path deadFile = Files.createFile(temp.resolve(".report.json.tmp-" + dead + "-" + RANDOM));
      Path deadFolder = Files.createDirectories(temp.resolve(".report.json.pack-" + dead + "-" + RANDOM + "/x"));
      List<String> kept = List.of(
          ".report.json.tmp-" + alive.pid() + "-" + RANDOM,           // a concurrent run's
          ".report.json.tmp-" + ProcessHandle.current().pid() + "-" + RANDOM, // this process's own
          ".other.json.tmp-" + dead + "-" + RANDOM,                   // another target's
          ".report.json.tmp-" + dead + "-" + "0123",                  // not a name te-wheel makes
          "report.json.tmp-" + dead + "-" + RANDOM,                   // not hidden
          "report.json");
      for (String name : kept) {
        Files.createFile(temp.resolve(name));
      }
      assertEquals(List.of(deadFile), OwnTemporaries.removeLeftovers(target, "tmp", null));
      assertEquals(List.of(deadFolder.getParent()), OwnTemporaries.removeLeftovers(target, "pack", null));
      assertEquals(kept.stream().sorted().toList(), names(temp));
    } finally {
      alive.destroy();
    }
  }

  @Test
  void aLeftoverThatIsALinkIsRemovedWithoutFollowingIt() throws Exception {
    Path elsewhere = Files.createDirectories(temp.resolve("elsewhere"));
    Files.writeString(elsewhere.resolve("keep.txt"), "kept");
    Path link = Files.createSymbolicLink(temp.resolve(".w.whl.pack-" + deadPid() + "-" + RANDOM), elsewhere);
    assertEquals(List.of(link), OwnTemporaries.removeLeftovers(temp.resolve("w.whl"), "pack", null));
    assertEquals("kept", Files.readString(elsewhere.resolve("keep.txt")));
  }

  @Test
  void legacyNamesAreLeftoversWhenAsked() throws Exception {
    Path old = Files.createFile(temp.resolve(".w.whl123456789.deflate"));
    Files.createFile(temp.resolve(".w.whl.deflate"));
    assertEquals(List.of(old), OwnTemporaries.removeLeftovers(temp.resolve("w.whl"), "pack",
        Pattern.compile("\\.w\\.whl\\d+\\.deflate")));
    assertEquals(List.of(".w.whl.deflate"), names(temp));
  }

  @Test
  void aNewTemporaryIsHiddenBesideItsTargetAndCarriesThisProcesssId() throws Exception {
    Path file = OwnTemporaries.createFile(temp.resolve("a.txt"), "tmp");
    assertTrue(file.getFileName().toString().matches("\\.a\\.txt\\.tmp-" + ProcessHandle.current().pid()
        + "-[0-9a-f]{16}"), file.toString());
    assertEquals(temp, file.getParent());
    assertEquals(List.of(), OwnTemporaries.leftovers(temp.resolve("a.txt"), "tmp", null), "a live run's own");
  }
}
