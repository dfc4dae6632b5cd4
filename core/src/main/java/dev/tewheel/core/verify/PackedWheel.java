package dev.tewheel.core.verify;

import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.pack.PackRequest;
import dev.tewheel.core.pack.PackResult;
import dev.tewheel.core.pack.PendingWheel;
import dev.tewheel.core.pack.WheelPacker;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Pack, then verify what was written before it takes the wheel's place, so a broken wheel never leaves the goal
 * and never replaces a good one: the new wheel is verified under its final file name in a private folder beside
 * the target ({@link PendingWheel}); only a wheel that passes is renamed over the target, one that fails goes to
 * {@code <file>.whl.rejected} (kept for inspection, out of reach of {@code *.whl} globs) and the previous wheel
 * stays as it was.
 *
 * @param result what pack wrote, {@link PackResult#wheel()} being the target's path
 * @param verification the verify report, when verification ran
 */
public record PackedWheel(PackResult result, Optional<GateReport> verification) {
  public static final String REJECTED_SUFFIX = ".rejected";

  /** What pack's passing verdict line starts with: its verdict is its verification's. */
  public static final String VERDICT_LABEL = "verify: ";

  /**
   * @param verify given the written wheel, the verify request to run; null to skip verification
   */
  public static PackedWheel packAndVerify(PackRequest request, Function<Path, VerifyRequest> verify)
      throws IOException {
    return packAndVerify(request, verify, line -> {});
  }

  /**
   * @param verify given the written wheel (at its temporary path, under its final name), the verify request to
   *     run; null to skip verification
   * @param log receives progress lines
   */
  public static PackedWheel packAndVerify(PackRequest request, Function<Path, VerifyRequest> verify,
      Consumer<String> log) throws IOException {
    return packAndVerify(request, verify, log, null);
  }

  /**
   * As {@link #packAndVerify(PackRequest, Function, Consumer)}, first adding the Requires-Dist lines the floors prove
   * ({@code declare}; null: none) after the user's own.
   */
  public static PackedWheel packAndVerify(PackRequest request, Function<Path, VerifyRequest> verify,
      Consumer<String> log, DeclareFloors declare) throws IOException {
    if (declare != null) {
      dev.tewheel.core.wheel.Metadata.Declared lines = declare.lines(request.stagingDirectory(), request.cudaMajor());
      lines.requirements().forEach(r -> log.accept("declareFloors: Requires-Dist: " + r));
      request = request.withDeclared(lines);
    }
    try (PendingWheel pending = new WheelPacker(Runtime.getRuntime().availableProcessors(), log)
        .packPending(request)) {
      if (verify == null) {
        return new PackedWheel(pending.commit(), Optional.empty());
      }
      GateReport report = new Verifier().verifyAs(verify.apply(pending.file()), pending.target());
      PackedWheel packed = new PackedWheel(atTarget(pending), Optional.of(report));
      if (report.passed()) {
        pending.commit();
      } else {
        pending.moveTo(packed.location());
      }
      return packed;
    }
  }

  private static PackResult atTarget(PendingWheel pending) {
    PackResult written = pending.result();
    return new PackResult(pending.target(), written.name(), written.files(), written.bytesIn(), written.bytesOut(),
        written.time());
  }

  /** Where the new wheel is now: at its name when it passed, else beside it as {@code <name>.whl.rejected}. */
  public Path location() {
    return passed() ? result.wheel() : result.wheel().resolveSibling(result.wheel().getFileName() + REJECTED_SUFFIX);
  }

  /**
   * What a failing verdict adds to its summary: where the new wheel was kept, and that the previous one (if any)
   * was left as it was.
   */
  public String failureNote() {
    return "; the new wheel was kept as " + location() + (java.nio.file.Files.exists(result.wheel())
        ? " and the previous " + result.wheel().getFileName() + " left as it was" : "");
  }

  public boolean passed() {
    return verification.map(GateReport::passed).orElse(true);
  }
}
