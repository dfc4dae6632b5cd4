package dev.tewheel.cli;

import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.goal.Configuration;
import dev.tewheel.core.goal.Parameters;
import dev.tewheel.core.verify.PackedWheel;
import dev.tewheel.core.verify.VerifyRequest;
import dev.tewheel.core.pack.PackRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * {@code te-wheel pack}: te:pack-wheel. Writes the .whl from a staged tree with the CUDA-major rename TE's release
 * script makes, verifies it as verify does, and puts it in place only when it passes.
 */
final class PackCommand extends GateCommand {
  private static final Options.Spec SPEC = new Options.Spec(Parameters.PACK_WHEEL,
      "--staging-directory DIR --version V", 0, 0);

  PackCommand() {
    super("pack", "te:pack-wheel", SPEC, SPEC.operands() + " [--cuda-major N] [--platform-tag TAG]",
        "write a wheel from a staged tree and verify it (te:pack-wheel)",
        "Writes a reproducible .whl (PEP 427: METADATA, WHEEL, RECORD) from --staging-directory into"
            + " --wheel-directory; with --cuda-major N the distribution becomes <name>_cu<N> (file name, dist-info,"
            + " METADATA Name), as TE's release script renames its wheel per CUDA major. The wheel is verified under its"
            + " final name before it takes its place; one that fails is kept as <file>.whl.rejected and exits 1, the"
            + " previous wheel left as it was.");
  }

  @Override
  int run(Options.Parsed parsed, Configuration configuration, Output output, Io io) throws IOException {
    PackRequest request = configuration.pack();
    Path reports = configuration.reportDirectory();
    // The platform is the one the wheel's name carries: the first of a compressed set.
    Function<Path, VerifyRequest> verification = configuration.packVerifies()
        ? configuration.verification(true, null, reports, true) : null;
    PackedWheel packed = PackedWheel.packAndVerify(request, verification, output::line,
        configuration.declareFloors());
    output.line(packed.result().summary());
    if (packed.verification().isEmpty()) {
      return Exit.PASSED;
    }
    GateReport report = packed.verification().get();
    output.report(report, reports, PackedWheel.VERDICT_LABEL, packed.failureNote());
    return report.passed() ? Exit.PASSED : Exit.FAILED;
  }
}
