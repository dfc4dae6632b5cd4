package dev.tewheel.core.release;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Gate;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.ReportKind;
import dev.tewheel.core.gate.ReportWriter;
import dev.tewheel.core.gate.Suppression;
import dev.tewheel.core.verify.Verifier;
import dev.tewheel.core.verify.VerifyRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * te:verify-release: every wheel of a release through the gate, a few at a time ({@link
 * ReleaseRequest#parallelism()}: each wheel's entries are inflated in chunks, so the heap holds a bounded amount per
 * wheel), with what RELEASE-MATRIX compares read while each wheel is open; then the matrix, and one report of all.
 */
public final class ReleaseVerifier {
  /** The release's verdict: one report of every wheel's findings and the matrix's, and each wheel's own. */
  public record Verdict(GateReport report, List<Path> wheels, List<GateReport> wheelReports) {}

  public Verdict verify(ReleaseRequest request) throws IOException {
    List<Path> wheels = request.wheels();
    List<Future<Verifier.Verified<WheelFacts>>> running = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(request.parallelism(), r -> {
      Thread t = new Thread(r, "te-verify-release");
      t.setDaemon(true);
      return t;
    });
    List<Verifier.Verified<WheelFacts>> verified = new ArrayList<>();
    try {
      for (Path wheel : wheels) {
        Path reports = request.reportDirectory() == null ? null : request.reportDirectory().resolve(folderOf(wheel));
        VerifyRequest one = request.verification().apply(wheel, reports);
        running.add(pool.submit(() -> {
          try {
            return new Verifier().verifyWith(one, subject -> WheelFacts.of(subject, request.wheelLibPath()));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }));
      }
      for (Future<Verifier.Verified<WheelFacts>> future : running) {
        verified.add(future.get());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("verify-release was interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UncheckedIOException io) {
        throw io.getCause();
      }
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IOException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
    List<Release.Wheel> facts = new ArrayList<>();
    List<GateReport> reports = new ArrayList<>();
    for (int i = 0; i < wheels.size(); i++) {
      facts.add(new Release.Wheel(wheels.get(i).toString(), verified.get(i).facts()));
      reports.add(verified.get(i).report());
    }
    String origin = request.origin() != null ? request.origin().toString()
        : wheels.isEmpty() ? "release" : wheels.get(0).toString();
    Release release = new Release(origin, facts, request.expectCudaMajors(), request.expectPlatforms());
    String description = "release " + origin + " (" + wheels.size() + " wheel" + (wheels.size() == 1 ? "" : "s")
        + ")";
    GateReport matrix = Gate.judge(ReportKind.RELEASE, ReleaseRules.RULES, release, description, request.policy());
    GateReport combined = combine(matrix, reports, wheels);
    ReportWriter.write(combined, request.reportDirectory(), request.projectBase());
    return new Verdict(combined, wheels, reports);
  }

  /**
   * The one report: each wheel's findings in wheel order, then the matrix's; a suppression unmatched only where
   * every gate left it unmatched.
   */
  private static GateReport combine(GateReport matrix, List<GateReport> wheels, List<Path> files) {
    List<Finding> findings = new ArrayList<>();
    List<GateReport.SuppressedFinding> suppressed = new ArrayList<>();
    long errors = matrix.totals().errors();
    long warnings = matrix.totals().warnings();
    long infos = matrix.totals().infos();
    long accepted = matrix.totals().suppressed();
    List<Suppression> unmatched = new ArrayList<>(matrix.unmatchedSuppressions());
    for (GateReport r : wheels) {
      findings.addAll(r.findings());
      suppressed.addAll(r.suppressed());
      errors += r.totals().errors();
      warnings += r.totals().warnings();
      infos += r.totals().infos();
      accepted += r.totals().suppressed();
      unmatched.retainAll(r.unmatchedSuppressions());
    }
    findings.addAll(matrix.findings());
    suppressed.addAll(matrix.suppressed());
    findings.sort(java.util.Comparator.comparing(Finding::severity).reversed());
    return new GateReport(ReportKind.RELEASE, matrix.subject(), "-", matrix.failOn(), ReleaseRules.reported(),
        findings, suppressed, unmatched, new ReleaseDetails(files.stream().map(Path::toString).toList(), wheels),
        matrix.times(), new GateReport.Totals(errors, warnings, infos, accepted));
  }

  /**
   * The wheels of a release folder, by name; a folder without any is refused, naming it.
   *
   * @throws IOException when the folder cannot be listed or holds no .whl
   */
  public static List<Path> wheelsIn(Path folder) throws IOException {
    if (!java.nio.file.Files.isDirectory(folder)) {
      throw new java.nio.file.NoSuchFileException(folder.toString(), null, "no release folder (a folder of .whl"
          + " files)");
    }
    try (java.util.stream.Stream<Path> children = java.nio.file.Files.list(folder)) {
      List<Path> wheels = children.filter(p -> p.getFileName().toString().endsWith(".whl")
          && java.nio.file.Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)).sorted().toList();
      if (wheels.isEmpty()) {
        throw new IOException(folder + " holds no .whl file: expected the release's wheels (one per CUDA variant"
            + " and platform)");
      }
      return wheels;
    }
  }

  /** The folder a wheel's own reports go to: its name without .whl. */
  static String folderOf(Path wheel) {
    String name = wheel.getFileName().toString();
    return name.endsWith(".whl") ? name.substring(0, name.length() - ".whl".length()) : name;
  }
}
