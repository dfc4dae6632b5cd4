package dev.tewheel.loader.te;

import java.io.IOException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The lib*.so* files under a system root of TE's search (a CUDA toolkit is thousands of files), walked once per
 * process, with the folders the walk skipped (loops, unreadable) for the warnings.
 */
final class SystemRoots {
  private static final Map<Path, Index> INDEX = new ConcurrentHashMap<>();

  /** A root's libraries, and the folders its walk skipped. */
  record Index(List<Path> files, List<String> skipped) {}

  private SystemRoots() {}

  /** The index of a root this process has walked already; empty when it has not. */
  static Optional<Index> walked(Path root) {
    return Optional.ofNullable(INDEX.get(root.toAbsolutePath().normalize()));
  }

  static Index of(Path root) {
    return INDEX.computeIfAbsent(root.toAbsolutePath().normalize(), SystemRoots::walk);
  }

  /**
   * The lib*.so* files under {@code root}, links followed. A folder reached again (a link loop, or a second link
   * to one already walked) is walked once, by file key; a folder that cannot be read is skipped. Both are
   * recorded and the walk goes on, so one bad folder never hides the libraries beside it, and nothing loops.
   */
  private static Index walk(Path root) {
    if (!Files.isDirectory(root)) {
      return new Index(List.of(), List.of());
    }
    List<Path> files = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    Set<Object> walked = new HashSet<>();
    try {
      Files.walkFileTree(root, EnumSet.of(FileVisitOption.FOLLOW_LINKS), 32, new SimpleFileVisitor<Path>() {
        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
          Object key = attrs.fileKey();
          if (key != null && !walked.add(key)) {
            return FileVisitResult.SKIP_SUBTREE; // another path to a folder already walked
          }
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
          String n = file.getFileName() == null ? "" : file.getFileName().toString();
          if (n.startsWith("lib") && n.contains(".so") && attrs.isRegularFile()) {
            files.add(file);
          }
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) {
          skipped.add(e instanceof FileSystemLoopException
              ? file + " (a link back to the folder " + target(file) + " that contains it: a loop, not walked)"
              : file + " (unreadable: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
                  + ")");
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path dir, IOException e) {
          if (e != null) {
            skipped.add(dir + " (listing failed: " + e.getMessage() + ")");
          }
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException | RuntimeException e) {
      skipped.add(root + " (walk stopped: " + e + ")");
    }
    return new Index(List.copyOf(files), List.copyOf(skipped));
  }

  private static String target(Path link) {
    try {
      return link.toRealPath().toString();
    } catch (IOException e) {
      return "?";
    }
  }
}
