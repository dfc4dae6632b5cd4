package dev.tewheel.core.assemble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
    String sha256 = writer.copy(source, temp.resolve("copy/big.so"));
    assertEquals(TreeWriter.sha256Of(source), sha256);
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
    new TreeWriter(temp.resolve("out"), log::add).copy(source, temp.resolve("x/a.h"));
    assertEquals(List.of(), log);
  }
}
