package dev.tewheel.cli;

import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.goal.Configuration;
import dev.tewheel.core.goal.Parameters;
import dev.tewheel.core.goal.VerifyInput;
import dev.tewheel.core.verify.Verifier;
import dev.tewheel.core.verify.VerifyRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/** {@code te-wheel verify}: te:verify-wheel-lib on each .whl, wheel_lib folder or folder of wheels given. */
final class VerifyCommand extends GateCommand {
  private static final Options.Spec SPEC = new Options.Spec(Parameters.VERIFY_WHEEL_LIB,
      "<wheel|wheel_lib folder|folder of wheels>...", 1, Integer.MAX_VALUE);

  VerifyCommand() {
    super("verify", "te:verify-wheel-lib", SPEC, SPEC.operands(),
        "the release gate: every check on each wheel (te:verify-wheel-lib)",
        "Runs every check on each .whl (read in place), wheel_lib folder, or folder of wheels (each .whl in it),"
            + " prints the findings and a verdict per wheel, and with --report-dir writes report.json, the JUnit XML and"
            + " the SARIF file (into a folder per wheel when there are several). Exit 1 when any wheel has a finding at"
            + " or above --fail-on.");
  }

  @Override
  int run(Options.Parsed parsed, Configuration configuration, Output output, Io io)
      throws UsageException, IOException {
    // Every parameter is checked before any input is read.
    BiFunction<VerifyInput, Path, VerifyRequest> requests =
        configuration.verifications(configuration.platformTag(), true);
    Path reports = configuration.reportDirectory();
    List<VerifyInput> inputs = new ArrayList<>();
    for (String operand : parsed.operands()) {
      inputs.addAll(VerifyInput.of(io.workingFolder().resolve(operand)));
    }
    if (inputs.size() > 1 && output.reportOnStandardOutput()) {
      throw new UsageException("--format " + parsed.format().name().toLowerCase(java.util.Locale.ROOT) + " prints"
          + " one report, and " + inputs.size() + " wheels are given; verify one at a time, or use --format text"
          + " with --report-dir, which writes each wheel's reports into a folder of its own");
    }
    int failed = 0;
    for (VerifyInput input : inputs) {
      if (input != inputs.get(0)) {
        output.separator();
      }
      Path folder = input.reportFolder(reports, inputs.size() == 1);
      GateReport report = new Verifier().verify(requests.apply(input, folder));
      output.report(report, folder, "", "");
      failed += report.passed() ? 0 : 1;
    }
    if (inputs.size() > 1) {
      output.separator();
      output.line(inputs.size() + " verified: " + (inputs.size() - failed) + " passed, " + failed + " failed");
    }
    return failed == 0 ? Exit.PASSED : Exit.FAILED;
  }
}
