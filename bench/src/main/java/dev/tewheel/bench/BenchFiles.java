package dev.tewheel.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/** The file and process steps the benchmarks make their inputs with, written once. */
final class BenchFiles {
  private BenchFiles() {}

  /** Runs a command with this process's output, failing unless it exits 0; returns the exit status (0). */
  static int run(String... command) throws Exception {
    Process process = new ProcessBuilder(List.of(command)).inheritIO().start();
    int exit = process.waitFor();
    if (exit != 0) {
      throw new IllegalStateException(String.join(" ", command) + " exited with " + exit);
    }
    return exit;
  }

  /** Removes a folder and everything below it; nothing when it is not there. */
  static void deleteTree(Path folder) throws IOException {
    if (!Files.exists(folder)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(folder)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /**
   * Appends {@code bytes} pseudo-random bytes (from {@code seed}, so every run makes the same file): a library grown
   * this way stays a valid ELF file and does not compress.
   */
  static void appendRandom(Path file, long bytes, long seed) throws IOException {
    SplittableRandom random = new SplittableRandom(seed);
    byte[] block = new byte[1 << 20];
    try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.APPEND)) {
      for (long left = bytes; left > 0; left -= block.length) {
        for (int i = 0; i < block.length; i += 8) {
          long r = random.nextLong();
          for (int j = 0; j < 8; j++) {
            block[i + j] = (byte) (r >>> (8 * j));
          }
        }
        out.write(block, 0, (int) Math.min(left, block.length));
      }
    }
  }
}
