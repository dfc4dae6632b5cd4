package dev.tewheel.gpu;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Starts N local ranks of {@link EpRank}, one JVM per rank (one GPU per rank on a GPU host: device LOCAL_RANK), and
 * says which failed. Each child gets {@code RANK}, {@code WORLD_SIZE}, {@code LOCAL_RANK} and
 * {@code LOCAL_WORLD_SIZE} (torchrun's names), {@code TE_EP_ID_FILE} (a file in a fresh owner-only folder, through
 * which rank 0 hands the NCCL unique id to the others) and {@code NCCL_NVLS_ENABLE=0}; its output is copied here
 * line by line, prefixed {@code [rank N]}, and kept in {@code rank-N.log} of that folder. When a rank exits with a
 * non-zero status the others get {@code --grace-s} seconds to finish (on real NCCL they may wait forever on the dead
 * peer), then are killed. The exit status is 0 only when every rank exited 0; otherwise the last line names the
 * rank that failed first.
 *
 * <pre>
 * java -cp gpu-smoke.jar dev.tewheel.gpu.EpLaunch --ranks 2 --wheel-lib DIR [--nccl-library FILE] [--stand-ins]
 *     [--cases all|NAME,PREFIX...] [--all-to-all] [--timeout-s 540] [--grace-s 20] [--work DIR] [--fail-rank R]
 * </pre>
 *
 * {@code --fail-rank R} makes rank R exit with status 3 right after joining the communicator (to test the
 * failure path). {@code --work DIR} keeps the id file and the logs there (default: a fresh temporary folder, removed
 * when every rank passed). Under torchrun or mpirun, run {@link EpRank} itself with the same options instead.
 */
public final class EpLaunch {
  record Options(int ranks, Path wheelLib, Optional<Path> ncclLibrary, boolean standIns, List<EpCase> cases,
      boolean allToAll, int timeoutSeconds, int graceSeconds, int failRank, Optional<Path> work, List<String> args) {

    static Options parse(String[] args) {
      int ranks = 2;
      Path wheelLib = null;
      Path ncclLibrary = null;
      boolean standIns = false;
      String cases = "all";
      boolean allToAll = false;
      int timeout = 540;
      int grace = 20;
      int failRank = -1;
      Path work = null;
      List<String> forwarded = new ArrayList<>();
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        if (a.equals("--stand-ins")) {
          standIns = true;
          forwarded.add(a);
          continue;
        }
        if (a.equals("--all-to-all")) {
          allToAll = true;
          forwarded.add(a);
          continue;
        }
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException(a + " needs a value");
        }
        String v = args[++i];
        if (!a.equals("--work")) {
          forwarded.add(a);
          forwarded.add(v);
        }
        switch (a) {
          case "--ranks" -> ranks = positive(a, v);
          case "--wheel-lib" -> wheelLib = Path.of(v).toAbsolutePath().normalize();
          case "--nccl-library" -> ncclLibrary = Path.of(v).toAbsolutePath().normalize();
          case "--cases" -> cases = v;
          case "--timeout-s" -> timeout = positive(a, v);
          case "--grace-s" -> grace = positive(a, v);
          case "--fail-rank" -> failRank = positive(a, v);
          case "--work" -> work = Path.of(v).toAbsolutePath().normalize();
          default -> throw new IllegalArgumentException("unknown option " + a);
        }
      }
      if (wheelLib == null) {
        throw new IllegalArgumentException("--wheel-lib is required");
      }
      if (ranks < 1) {
        throw new IllegalArgumentException("--ranks must be at least 1");
      }
      return new Options(ranks, wheelLib, Optional.ofNullable(ncclLibrary), standIns, EpCase.select(cases), allToAll,
          timeout, grace, failRank, Optional.ofNullable(work), List.copyOf(forwarded));
    }

    private static int positive(String option, String v) {
      try {
        int n = Integer.parseInt(v);
        if (n < 0) {
          throw new NumberFormatException();
        }
        return n;
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(option + " needs a number >= 0, not " + v);
      }
    }
  }

  private static final String USAGE = "usage: java -cp gpu-smoke.jar dev.tewheel.gpu.EpLaunch --ranks N --wheel-lib DIR"
      + " [--nccl-library FILE] [--stand-ins] [--cases all|NAME,...] [--all-to-all] [--timeout-s S]"
      + " [--grace-s S] [--work DIR] [--fail-rank R]";

  private EpLaunch() {}

  public static void main(String[] args) {
    Options options = Usage.parseOrExit("ep-launch", USAGE, Options::parse, args);
    int status;
    try {
      status = launch(options, System.out);
    } catch (IOException e) {
      System.out.println("EP FAIL: the launcher could not start the ranks: " + e.getMessage());
      status = 2;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      System.out.println("EP FAIL: interrupted");
      status = 2;
    }
    System.out.flush();
    System.exit(status);
  }

  /** One child per rank; returns 0 when all exited 0. */
  static int launch(Options options, PrintStream out) throws IOException, InterruptedException {
    // mode 700: the id file's folder is this user's alone
    Path work = options.work().isPresent() ? Files.createDirectories(options.work().get())
        : Files.createTempDirectory("te-ep-launch-");
    Path idFile = work.resolve("nccl-unique-id");
    out.println("ep-launch: " + options.ranks() + " rank(s), " + options.cases().size() + " case(s), work folder "
        + work + ", unique id through " + idFile);
    List<Process> children = new ArrayList<>();
    List<Thread> pumps = new ArrayList<>();
    long start = System.nanoTime();
    for (int r = 0; r < options.ranks(); r++) {
      ProcessBuilder builder = new ProcessBuilder(command(options));
      Map<String, String> env = builder.environment();
      env.keySet().removeIf(name -> name.startsWith("OMPI_COMM_WORLD_"));
      env.put("RANK", Integer.toString(r));
      env.put("WORLD_SIZE", Integer.toString(options.ranks()));
      env.put("LOCAL_RANK", Integer.toString(r));
      env.put("LOCAL_WORLD_SIZE", Integer.toString(options.ranks()));
      env.put(RankEnv.ID_FILE, idFile.toString());
      env.put("NCCL_NVLS_ENABLE", "0"); // NVLink SHARP multicast stays off on these machines (gpu/README.md)
      builder.redirectErrorStream(true);
      Process child = builder.start();
      children.add(child);
      pumps.add(pump(child, r, work.resolve("rank-" + r + ".log"), out));
    }

    long deadline = start + TimeUnit.SECONDS.toNanos(options.timeoutSeconds());
    int[] exit = new int[children.size()];
    long[] exitedAt = new long[children.size()];
    java.util.Arrays.fill(exitedAt, Long.MAX_VALUE);
    long failedAt = Long.MAX_VALUE;
    boolean timedOut = false;
    while (true) {
      boolean running = false;
      for (int r = 0; r < children.size(); r++) {
        Process child = children.get(r);
        if (exitedAt[r] == Long.MAX_VALUE && !child.isAlive()) {
          exit[r] = child.exitValue();
          exitedAt[r] = System.nanoTime();
          if (exit[r] != 0) {
            failedAt = Math.min(failedAt, exitedAt[r]);
          }
        }
        running |= exitedAt[r] == Long.MAX_VALUE;
      }
      if (!running) {
        break;
      }
      long now = System.nanoTime();
      boolean graceOver = failedAt != Long.MAX_VALUE && now - failedAt > TimeUnit.SECONDS.toNanos(
          options.graceSeconds());
      if (graceOver || now > deadline) {
        timedOut = !graceOver;
        for (int r = 0; r < children.size(); r++) {
          if (exitedAt[r] == Long.MAX_VALUE) {
            out.println("ep-launch: killing rank " + r + (graceOver ? ", still running " + options.graceSeconds()
                + " s after another rank failed" : ", still running after " + options.timeoutSeconds() + " s"));
            children.get(r).destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            exit[r] = -9;
            exitedAt[r] = System.nanoTime();
          }
        }
        break;
      }
      Thread.sleep(50);
    }
    for (Thread t : pumps) {
      t.join(TimeUnit.SECONDS.toMillis(10));
    }
    Files.deleteIfExists(idFile);

    List<Integer> failed = new ArrayList<>();
    for (int r = 0; r < exit.length; r++) {
      if (exit[r] != 0) {
        failed.add(r);
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    if (failed.isEmpty()) {
      out.printf(java.util.Locale.ROOT, "EP PASS: %d rank(s), every rank passed every case (%.1f s)%n",
          options.ranks(), seconds);
      if (options.work().isEmpty()) { // a folder of its own, not needed once all passed
        for (int r = 0; r < exit.length; r++) {
          Files.deleteIfExists(work.resolve("rank-" + r + ".log"));
        }
        Files.deleteIfExists(work);
      }
      return 0;
    }
    failed.sort((a, b) -> Long.compare(exitedAt[a], exitedAt[b]));
    int first = failed.get(0);
    StringBuilder others = new StringBuilder();
    for (int r : failed.subList(1, failed.size())) {
      others.append("; rank ").append(r).append(" ").append(describe(exit[r]));
    }
    out.printf(java.util.Locale.ROOT, "EP FAIL: rank %d failed first (%s)%s%s; logs in %s (%.1f s)%n", first,
        describe(exit[first]), others, timedOut ? "; the run timed out" : "", work, seconds);
    return 1;
  }

  private static String describe(int exit) {
    return exit == -9 ? "killed by the launcher" : "exit status " + exit;
  }

  /** The child JVM: this JVM's java, class path and te.* properties, native access enabled. */
  private static List<String> command(Options options) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--enable-native-access=ALL-UNNAMED");
    System.getProperties().stringPropertyNames().stream().filter(n -> n.startsWith("te.")).sorted()
        .forEach(n -> command.add("-D" + n + "=" + System.getProperty(n)));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(EpRank.class.getName());
    command.addAll(options.args());
    return command;
  }

  private static Thread pump(Process child, int rank, Path log, PrintStream out) {
    Thread thread = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
          PrintStream file = new PrintStream(Files.newOutputStream(log), true, StandardCharsets.UTF_8)) {
        for (String line; (line = in.readLine()) != null; ) {
          file.println(line);
          synchronized (out) {
            out.println("[rank " + rank + "] " + line);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }, "rank-" + rank + "-output");
    thread.setDaemon(true);
    thread.start();
    return thread;
  }
}
