package dev.tewheel.cli;

import dev.tewheel.core.diff.WheelDiff;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.goal.Configuration;
import dev.tewheel.core.goal.Parameters;
import java.io.IOException;
import java.nio.file.Path;

/** {@code te-wheel diff <baseline> <current>}: te:diff-wheel, this release against the previous one. */
final class DiffCommand extends GateCommand {
  private static final Options.Spec SPEC = new Options.Spec(Parameters.DIFF_WHEEL, "<baseline> <current>", 2, 2);

  DiffCommand() {
    super("diff", "te:diff-wheel", SPEC, SPEC.operands(),
        "ABI and size changes of this release against the previous one (te:diff-wheel)",
        "Compares <current> with <baseline> (each a .whl or a wheel_lib folder): files added, removed and changed;"
            + " per library its SONAME, DT_NEEDED, exports, GLIBC/GLIBCXX ceilings, BIND_NOW and CUDA architectures;"
            + " the total size against --max-growth-percent. Exit 1 on a finding at or above --fail-on.");
  }

  @Override
  int run(Options.Parsed parsed, Configuration configuration, Output output, Io io) throws IOException {
    Path baseline = io.workingFolder().resolve(parsed.operands().get(0));
    Path current = io.workingFolder().resolve(parsed.operands().get(1));
    Path reports = configuration.reportDirectory();
    GateReport report = new WheelDiff().diff(configuration.diff(baseline, current, reports));
    output.report(report, reports, "", "");
    return report.passed() ? Exit.PASSED : Exit.FAILED;
  }
}
