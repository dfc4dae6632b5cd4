package dev.tewheel.core.assemble;

import dev.tewheel.bundle.io.AtomicFiles;
import dev.tewheel.bundle.io.OwnTemporaries;
import dev.tewheel.bundle.io.Sha256;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Writes a tree atomically: into a temporary sibling folder, swapped in by rename, so a failure or a kill leaves
 * the previous tree (or none) as it was. Unchanged files are hard-linked from the previous tree rather than copied.
 */
final class TreeWriter {
  static final long PROGRESS_THRESHOLD = 100L << 20;
  /** The kinds of {@link OwnTemporaries} beside the tree: the next tree being written, the previous one in a swap. */
  static final String STAGING = "staging";
  static final String OLD = "old";
  private static final long CHUNK = 8L << 20;
  private static final int BUFFER = 1 << 20;

  private final Path out;
  private final Path parent;
  private final String name;
  private final Consumer<String> log;

  TreeWriter(Path out, Consumer<String> log) {
    this.out = out.toAbsolutePath().normalize();
    this.parent = this.out.getParent();
    this.name = this.out.getFileName().toString();
    this.log = log;
  }

  /**
   * Removes what an interrupted run left beside the tree (staging and old folders of a process that no longer
   * runs); restores the previous tree if a swap was cut short between its two renames.
   */
  void recover() throws IOException {
    if (!Files.isDirectory(parent)) {
      return;
    }
    for (Path old : OwnTemporaries.leftovers(out, OLD, legacy(OLD))) {
      if (!Files.exists(out, LinkOption.NOFOLLOW_LINKS)) {
        AtomicFiles.rename(old, out);
        log.accept("restored " + out + " from an interrupted run");
      } else {
        OwnTemporaries.delete(old);
        log.accept("removed " + old + ", left by an interrupted run");
      }
    }
    for (Path staging : OwnTemporaries.removeLeftovers(out, STAGING, legacy(STAGING))) {
      log.accept("removed " + staging + ", left by an interrupted run");
    }
  }

  /** Names an older te-wheel gave these folders, without a process id. */
  private Pattern legacy(String kind) {
    return Pattern.compile(Pattern.quote("." + name + "." + kind + "-") + "[0-9a-f]+");
  }

  Path newStaging() throws IOException {
    Files.createDirectories(parent);
    return OwnTemporaries.createFolder(out, STAGING);
  }

  /** Replaces the tree with the staging folder: two renames, the old tree deleted after. */
  void swapIn(Path staging) throws IOException {
    if (Files.exists(out, LinkOption.NOFOLLOW_LINKS)) {
      Path old = OwnTemporaries.name(out, OLD);
      AtomicFiles.rename(out, old);
      AtomicFiles.rename(staging, out);
      OwnTemporaries.delete(old);
    } else {
      AtomicFiles.rename(staging, out);
    }
  }

  /** Hard-links an unchanged file of the previous tree into staging; copies where links are not possible. */
  static void link(Path previous, Path target) throws IOException {
    Files.createDirectories(target.getParent());
    try {
      Files.createLink(target, previous);
    } catch (UnsupportedOperationException | FileSystemException e) {
      Files.copy(previous, target, StandardCopyOption.COPY_ATTRIBUTES);
    }
  }

  /**
   * Copies files into the tree and returns each target's sha256 in hex. Every file is one copy task (through the
   * kernel: FileChannel.transferTo, no bytes through the heap) and one hash task (from the page cache), run on all
   * cores, largest first. SHA-256 cannot be split within a file, so the largest file's hash is the critical path;
   * taking tasks largest first gives it a core of its own while the copies and the smaller hashes share the others.
   * Memory stays flat whatever the sizes.
   */
  Map<Path, String> copyAll(Map<Path, Path> sourceByTarget) throws IOException {
    record Task(Path target, Path source, long size, boolean hash) {}
    List<Task> tasks = new ArrayList<>();
    for (Map.Entry<Path, Path> copy : sourceByTarget.entrySet()) {
      Files.createDirectories(copy.getKey().getParent());
      long size = Files.size(copy.getValue());
      tasks.add(new Task(copy.getKey(), copy.getValue(), size, true));
      tasks.add(new Task(copy.getKey(), copy.getValue(), size, false));
    }
    tasks.sort(Comparator.comparingLong(Task::size).reversed().thenComparing(task -> !task.hash()));
    int threads = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), tasks.size()));
    ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
      Thread thread = new Thread(runnable, "te-wheel copy");
      thread.setDaemon(true);
      return thread;
    });
    try {
      // Results in the order they finish, so the first failure stops the run at once.
      CompletionService<String> done = new ExecutorCompletionService<>(pool);
      Map<Future<String>, Task> running = new HashMap<>();
      for (Task task : tasks) {
        running.put(done.submit(() -> {
          if (task.hash()) {
            return Sha256.hex(Sha256.of(task.source()));
          }
          transfer(task.source(), task.target(), task.size());
          return null;
        }), task);
      }
      Map<Path, String> digests = new HashMap<>();
      for (int i = 0; i < tasks.size(); i++) {
        Future<String> finished = take(done);
        Task task = running.get(finished);
        String result = await(finished, (task.hash() ? "hashing " : "copying ") + task.source());
        if (task.hash()) {
          digests.put(task.target(), result);
        }
      }
      return digests;
    } finally {
      // On a failure the other tasks are interrupted (FileChannel stops at once); wait for them, so none still
      // writes into the staging folder while the caller deletes it.
      pool.shutdownNow();
      try {
        pool.awaitTermination(1, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static <T> Future<T> take(CompletionService<T> done) throws IOException {
    try {
      return done.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while copying");
    }
  }

  private static <T> T await(Future<T> future, String what) throws IOException {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      future.cancel(true);
      throw new InterruptedIOException("interrupted while " + what);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(what + " failed", e.getCause());
    }
  }

  private void transfer(Path source, Path target, long size) throws IOException {
    try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
        FileChannel to = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      long done = 0;
      long nextReport = size / 10;
      while (done < size) {
        long moved = in.transferTo(done, Math.min(CHUNK, size - done), to);
        if (moved <= 0) {
          throw new IOException(source + " ended at byte " + done + " of " + size + " while it was copied");
        }
        done += moved;
        if (size >= PROGRESS_THRESHOLD && done >= nextReport && done < size) {
          log.accept(String.format("copying %s: %d%% of %,d MB", source.getFileName(), Math.round(done * 100.0 / size),
              size >> 20));
          nextReport += size / 10;
        }
      }
    }
  }

  /** 0755 or 0644, and the given mtime: the same bits whatever the umask and the clock. */
  static void normalize(Path file, boolean executable, FileTime mtime) throws IOException {
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(executable ? "rwxr-xr-x" : "rw-r--r--"));
    } catch (UnsupportedOperationException e) {
      // Not a POSIX file system: modes are set when the wheel is packed.
    }
    Files.setLastModifiedTime(file, mtime);
  }

  /** Folders get 0755 and the mtime too, deepest first, so their own writes do not change it afterwards. */
  static void normalizeFolders(Path root, FileTime mtime) throws IOException {
    List<Path> folders;
    try (Stream<Path> walk = Files.walk(root)) {
      folders = walk.filter(Files::isDirectory).sorted(Comparator.reverseOrder()).toList();
    }
    for (Path folder : folders) {
      normalize(folder, true, mtime);
    }
  }

  /** Files of the current tree (relative paths), to tell which ones a new plan drops. */
  List<String> existingFiles() throws IOException {
    if (!Files.isDirectory(out)) {
      return List.of();
    }
    try (Stream<Path> walk = Files.walk(out)) {
      return walk.filter(p -> Files.isRegularFile(p) || Files.isSymbolicLink(p)).map(p -> out.relativize(p).toString().replace('\\', '/'))
          .sorted().toList();
    }
  }

  static BasicFileAttributes attributes(Path file) throws IOException {
    return Files.readAttributes(file, BasicFileAttributes.class);
  }

  static void deleteTree(Path root) throws IOException {
    OwnTemporaries.delete(root);
  }


}
