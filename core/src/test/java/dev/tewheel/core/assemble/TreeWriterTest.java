package dev.tewheel.core.assemble;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class TreeWriterTest {
  @TempDir Path temp;

  @Test
  void copiesLargeFilesThroughTheKernelWithProgressAndTheRightDigest() throws Exception {
    Path source = temp.resolve("big.so");
    try (RandomAccessFile file = new RandomAccessFile(source.toFile(), "rw")) {
      file.setLength(TreeWriter.PROGRESS_THRESHOLD + 1);
      file.seek(12345);
      file.write(new byte[] {1, 2, 3});
    }
    List<String> log = new ArrayList<>();
    TreeWriter writer = new TreeWriter(temp.resolve("out"), log::add);
    Path target = temp.resolve("copy/big.so");
    String sha256 = writer.copyAll(Map.of(target, source)).get(target);
    assertEquals(dev.tewheel.bundle.io.Sha256.hex(dev.tewheel.bundle.io.Sha256.of(source)), sha256);
    assertEquals(Files.mismatch(source, temp.resolve("copy/big.so")), -1L);
    assertTrue(log.size() >= 5, log.toString());
    int last = 0;
    for (String line : log) {
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("copying big.so: (\\d+)% of 100 MB").matcher(line);
      assertTrue(m.matches(), line);
      assertTrue(Integer.parseInt(m.group(1)) > last && Integer.parseInt(m.group(1)) < 100, log.toString());
      last = Integer.parseInt(m.group(1));
    }
  }

  @Test
  void smallFilesAreCopiedSilently() throws Exception {
    Path source = Files.writeString(temp.resolve("a.h"), "#pragma once\n");
    List<String> log = new ArrayList<>();
    new TreeWriter(temp.resolve("out"), log::add).copyAll(Map.of(temp.resolve("x/a.h"), source));
    assertEquals(List.of(), log);
  }

  @Test
  void copiesSeveralFilesAtOnceEachWithItsOwnDigest() throws Exception {
    Map<Path, Path> copies = new HashMap<>();
    Map<Path, byte[]> contents = new HashMap<>();
    Random random = new Random(7);
    Files.createDirectories(temp.resolve("in"));
    for (int i = 0; i < 12; i++) {
      byte[] bytes = new byte[random.nextInt(3 << 20)];
      random.nextBytes(bytes);
      Path source = Files.write(temp.resolve("in/f" + i), bytes, java.nio.file.StandardOpenOption.CREATE_NEW,
          java.nio.file.StandardOpenOption.WRITE);
      Path target = temp.resolve("out/sub" + (i % 3) + "/f" + i);
      copies.put(target, source);
      contents.put(target, bytes);
    }
    Map<Path, String> digests = new TreeWriter(temp.resolve("out"), line -> {}).copyAll(copies);
    assertEquals(copies.keySet(), digests.keySet());
    for (Path target : copies.keySet()) {
      assertArrayEquals(contents.get(target), Files.readAllBytes(target), target.toString());
      assertEquals(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(contents.get(target))),
          digests.get(target), target.toString());
    }
  }

  @Test
  void theFirstFailureStopsTheOtherCopiesAndNamesTheFile() throws Exception {
    // The largest file's copy fails at once (its target exists); its hash and the other file's tasks must stop,
    // and no task may outlive copyAll (the caller deletes the staging folder next).
    Path failing = sparse(temp.resolve("in/big.so"), 4L << 30);
    Path other = sparse(temp.resolve("in/other.so"), 2L << 30);
    Path failingTarget = Files.createDirectories(temp.resolve("out")).resolve("big.so");
    Files.writeString(failingTarget, "old");
    Path otherTarget = temp.resolve("out/other.so");
    IOException e = assertThrows(IOException.class, () -> new TreeWriter(temp.resolve("out"), line -> {})
        .copyAll(Map.of(failingTarget, failing, otherTarget, other)));
    assertTrue(e.getMessage().contains(failingTarget.toString()), e.getMessage());
    assertEquals("old", Files.readString(failingTarget));
    long copied = Files.exists(otherTarget) ? Files.size(otherTarget) : 0;
    assertTrue(copied < (2L << 30), "the other copy was stopped, not finished: " + copied);
    Thread.sleep(200);
    assertEquals(copied, Files.exists(otherTarget) ? Files.size(otherTarget) : 0, "nothing runs after copyAll");
  }

  private static Path sparse(Path file, long size) throws IOException {
    Files.createDirectories(file.getParent());
    try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw")) {
      out.setLength(size);
    }
    return file;
  }
}
