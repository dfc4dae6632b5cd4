package dev.tewheel.core;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.assemble.AssembleException;
import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.diff.DiffRequest;
import dev.tewheel.core.diff.WheelDiff;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.LogLine;
import dev.tewheel.core.gate.ReportWriter;
import dev.tewheel.core.jar.WheelLibJar;
import dev.tewheel.core.verify.PackedWheel;
import dev.tewheel.core.verify.Verifier;
import dev.tewheel.core.verify.VerifyRequest;
import dev.tewheel.core.pack.PackRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one goal's core entry point in a fresh JVM with a capped heap, as a build would: the console lines a goal
 * prints (the table, the warnings, the summary) go to stdout, the report files to a folder, and the exit status says
 * how it ended. Memory is the point: a JVM that runs out exits with {@value #OUT_OF_MEMORY} (the parent passes
 * {@code -XX:+ExitOnOutOfMemoryError}), so a test tells a refused input from an exhausted heap.
 */
public final class GoalInChildJvm {
  /** The verdict passed. */
  public static final int PASSED = 0;
  /** The verdict failed: findings at or above failOn. */
  public static final int FAILED = 1;
  /** The goal stopped with an error before or instead of a verdict (a refused input, a misconfiguration). */
  public static final int ERROR = 2;
  /** What the JVM exits with when the heap runs out under -XX:+ExitOnOutOfMemoryError. */
  public static final int OUT_OF_MEMORY = 3;

  /** How a child run ended. */
  public record Result(int exit, String console, long seconds, Path reports) {
    public String describe() {
      String shown = console.length() > 4000 ? console.substring(0, 2000) + "\n…\n"
          + console.substring(console.length() - 2000) : console;
      return "exit " + exit + " after " + seconds + " s, console " + console.length() + " chars:\n" + shown;
    }

    /** The report files' total size in bytes. */
    public long reportBytes() throws IOException {
      if (!Files.isDirectory(reports)) {
        return 0;
      }
      try (var files = Files.list(reports)) {
        long total = 0;
        for (Path file : files.toList()) {
          total += Files.size(file);
        }
        return total;
      }
    }
  }

  private GoalInChildJvm() {}

  /**
   * Starts {@code goal} with {@code args} under {@code -Xmx<heapMiB>m}, waits at most {@code timeoutSeconds}, and
   * returns how it ended; a child still running then is killed and the run fails the test that asked.
   */
  public static Result run(Path work, int heapMiB, long timeoutSeconds, String goal, String... args)
      throws IOException, InterruptedException {
    Path reports = Files.createDirectories(work.resolve("reports-" + goal + "-" + System.nanoTime()));
    Path console = reports.resolveSibling(reports.getFileName() + ".console");
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "-Xmx" + heapMiB + "m", "-XX:+ExitOnOutOfMemoryError", "-XX:ActiveProcessorCount=2",
        "-Dte.standIns=" + System.getProperty("te.standIns", ""), "-cp", System.getProperty("java.class.path"),
        GoalInChildJvm.class.getName(), goal, reports.toString()));
    command.addAll(Arrays.asList(args));
    long start = System.nanoTime();
    Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(console.toFile()).start();
    if (!child.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      child.destroyForcibly().waitFor();
      throw new AssertionError(goal + " ran past " + timeoutSeconds + " s on " + String.join(" ", args));
    }
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
    return new Result(child.exitValue(), Files.readString(console, StandardCharsets.UTF_8), seconds, reports);
  }

  /** {@code <goal> <report folder> <goal's arguments>}; see {@link #run}. */
  public static void main(String[] args) {
    String goal = args[0];
    Path reports = Path.of(args[1]);
    List<String> rest = List.of(args).subList(2, args.length);
    try {
      GateReport report = switch (goal) {
        case "verify" -> new Verifier().verify(verifyRequest(rest).withReportDirectory(reports));
        case "assemble" -> assemble(rest, reports);
        case "pack" -> pack(rest, reports);
        case "diff" -> new WheelDiff().diff(new DiffRequest(Path.of(rest.get(0)), Path.of(rest.get(1)),
            VerifyRequest.DEFAULT_WHEEL_LIB_PATH, Layout.DEFAULT, DiffRequest.DEFAULT_MAX_GROWTH_PERCENT, null,
            Map.of(), List.of(), reports, null));
        case "release" -> new dev.tewheel.core.release.ReleaseVerifier().verify(
            new dev.tewheel.core.release.ReleaseRequest(null, rest.subList(1, rest.size()).stream().map(Path::of)
                .toList(), List.of(12, 13), List.of(rest.get(0).split(",")),
                (whl, folder) -> VerifyRequest.wheel(whl).withReportDirectory(folder), null,
                dev.tewheel.core.gate.GatePolicy.of(dev.tewheel.core.release.ReleaseRules.RULES, null, Map.of(),
                    List.of()), reports, null, dev.tewheel.core.release.ReleaseRequest.MAX_PARALLELISM)).report();
        case "jar" -> {
          WheelLibJar.Written written = WheelLibJar.write(new WheelLibJar.Request(Path.of(rest.get(0)),
              WheelLibJar.DEFAULT_RESOURCE_FOLDER, Path.of(rest.get(1)), FileTime.fromMillis(0)));
          System.out.println("jar " + written.jar() + ": " + written.files() + " files");
          yield null;
        }
        default -> throw new IllegalArgumentException("no goal " + goal);
      };
      if (report == null) {
        System.exit(PASSED);
      }
      print(report);
      System.exit(report.passed() ? PASSED : FAILED);
    } catch (AssembleException e) {
      e.verdict().ifPresent(GoalInChildJvm::print);
      System.out.println("ERROR " + dev.tewheel.json.Printable.text(e.getMessage()));
      System.exit(ERROR);
    } catch (IOException | RuntimeException e) {
      System.out.println("ERROR " + e.getClass().getSimpleName() + ": " + dev.tewheel.json.Printable.text(
          String.valueOf(e.getMessage())));
      System.exit(ERROR);
    }
  }

  /** {@code <.whl or folder> [floor library ...]}. */
  private static VerifyRequest verifyRequest(List<String> args) {
    Path input = Path.of(args.get(0));
    VerifyRequest request = Files.isDirectory(input) ? VerifyRequest.folder(input) : VerifyRequest.wheel(input);
    List<Path> floors = args.subList(1, args.size()).stream().map(Path::of).toList();
    return request.withSettings(CheckSettings.defaults().withFloorLibraries(floors));
  }

  /** {@code <TE library> <NCCL EP home> <output wheel_lib>}. */
  private static GateReport assemble(List<String> args, Path reports) throws AssembleException {
    return new Assembler(line -> {}).assemble(AssembleRequest.of(Path.of(args.get(0)), Path.of(args.get(1)),
        Path.of(args.get(2))).withReports(reports, null)).verdict();
  }

  /** {@code <staging folder> <output folder>}: packs, then verifies what it wrote, as te:pack-wheel does. */
  private static GateReport pack(List<String> args, Path reports) throws IOException {
    PackRequest request = PackRequest.of(Path.of(args.get(0)), "transformer_engine", "2.9.0",
        "manylinux_2_34_x86_64", Path.of(args.get(1)));
    PackedWheel packed = PackedWheel.packAndVerify(request,
        whl -> VerifyRequest.wheel(whl).withReportDirectory(reports));
    return packed.verification().orElseThrow();
  }

  /** The console lines a goal logs: the table, the warnings, the summary. */
  private static void print(GateReport report) {
    ReportWriter writer = new ReportWriter(report);
    for (LogLine line : writer.table()) {
      System.out.println("[" + line.level() + "] " + line.text());
    }
    writer.warnings().forEach(w -> System.out.println("[WARNING] " + w));
    System.out.println(report.summary());
  }
}
