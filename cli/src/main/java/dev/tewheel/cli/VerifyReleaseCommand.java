package dev.tewheel.cli;

import dev.tewheel.core.goal.Configuration;
import dev.tewheel.core.goal.Parameters;
import dev.tewheel.core.release.ReleaseVerifier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code te-wheel verify-release}: te:verify-release on a release folder, or on the release's wheels named. */
final class VerifyReleaseCommand extends GateCommand {
  private static final Options.Spec SPEC = new Options.Spec(Parameters.VERIFY_RELEASE,
      "<release folder|wheel>...", 1, Integer.MAX_VALUE);

  VerifyReleaseCommand() {
    super("verify-release", "te:verify-release", SPEC, SPEC.operands(),
        "a release as one set: every wheel, then RELEASE-MATRIX (te:verify-release)",
        "Verifies every wheel of a release (a folder of .whl files, or the wheels named) as verify does, a few at"
            + " a time, then RELEASE-MATRIX: each expected CUDA variant and platform once (--expect-cuda-majors,"
            + " --expect-platforms), one version, the same Python files, TE exports, NCCL EP and GPU architectures."
            + " Prints one report; --report-dir writes it, and each wheel's own in a folder named after it. Exit 1 when"
            + " a finding reaches --fail-on.");
  }

  @Override
  int run(Options.Parsed parsed, Configuration configuration, Output output, Io io)
      throws UsageException, IOException {
    Path origin = null;
    List<Path> wheels = new ArrayList<>();
    for (String operand : parsed.operands()) {
      Path path = io.workingFolder().resolve(operand);
      if (Files.isDirectory(path)) {
        origin = parsed.operands().size() == 1 ? path : null;
        wheels.addAll(ReleaseVerifier.wheelsIn(path));
      } else if (Files.isRegularFile(path)) {
        wheels.add(path);
      } else {
        throw new java.nio.file.NoSuchFileException(path.toString(), null, "neither a .whl nor a release folder");
      }
    }
    Path reports = configuration.reportDirectory();
    ReleaseVerifier.Verdict verdict = new ReleaseVerifier().verify(configuration.release(origin, wheels, reports));
    output.report(verdict.report(), reports, "", "");
    return verdict.report().passed() ? Exit.PASSED : Exit.FAILED;
  }
}
