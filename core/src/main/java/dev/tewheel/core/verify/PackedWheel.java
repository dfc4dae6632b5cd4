package dev.tewheel.core.verify;

import dev.tewheel.core.wheel.PackRequest;
import dev.tewheel.core.wheel.PackResult;
import dev.tewheel.core.wheel.WheelPacker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.function.Function;

/**
 * Pack, then verify what was written, so a broken wheel never leaves the goal: a wheel that fails its verification
 * is renamed to {@code <file>.whl.rejected} (kept for inspection, out of reach of {@code *.whl} globs).
 *
 * @param result what pack wrote
 * @param verification the verify report, when verification ran
 */
public record PackedWheel(PackResult result, Optional<VerifyReport> verification) {
  public static final String REJECTED_SUFFIX = ".rejected";

  /**
   * @param verify given the written wheel, the verify request to run; null to skip verification
   */
  public static PackedWheel packAndVerify(PackRequest request, Function<Path, VerifyRequest> verify)
      throws IOException {
    PackResult result = new WheelPacker().pack(request);
    if (verify == null) {
      return new PackedWheel(result, Optional.empty());
    }
    VerifyReport report = new Verifier().verify(verify.apply(result.wheel()));
    if (!report.passed()) {
      Path rejected = result.wheel().resolveSibling(result.wheel().getFileName() + REJECTED_SUFFIX);
      Files.move(result.wheel(), rejected, StandardCopyOption.REPLACE_EXISTING);
    }
    return new PackedWheel(result, Optional.of(report));
  }

  public boolean passed() {
    return verification.map(VerifyReport::passed).orElse(true);
  }
}
