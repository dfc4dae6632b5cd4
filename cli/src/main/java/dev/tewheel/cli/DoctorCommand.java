package dev.tewheel.cli;

import dev.tewheel.core.doctor.Doctor;
import dev.tewheel.core.doctor.DoctorException;
import dev.tewheel.core.doctor.DoctorReport;
import dev.tewheel.core.goal.Configuration;
import dev.tewheel.core.goal.ParameterException;
import dev.tewheel.core.goal.Parameters;
import dev.tewheel.json.Printable;
import java.util.List;

/**
 * {@code te-wheel doctor}: would {@code import transformer_engine} work in a Python environment (core's
 * {@link Doctor}), as text or JSON; exit 0 it would, 1 it would fail, 2 doctor could not tell (or a usage error).
 */
final class DoctorCommand extends Command {
  private static final Options.Spec SPEC = new Options.Spec(Parameters.DOCTOR,
      "(--python PATH | --site-packages DIR...) [--env KEY=VALUE]...", 0, 0);

  DoctorCommand() {
    super(new Usage("doctor", SPEC.operands(),
        "would import transformer_engine work in this Python environment, predicted without loading anything"));
  }

  @Override
  int run(List<String> args, Io io) {
    Options.Parsed parsed;
    try {
      parsed = Options.parse(SPEC, args);
      if (parsed.help()) {
        io.out().print(Help.command(usage().name(), SPEC,
            "Replays TE's import (transformer_engine/common/__init__.py) over"
                + " the environment's files: TE's package checks, the libraries TE loads in its order, the core"
                + " library's and the framework extensions' binding; each finding names the library, its file, the"
                + " distribution that installed it and one fix. Nothing of the environment is loaded or run; with"
                + " --python, that interpreter is asked once where it imports from (python -I -S, a fixed query).",
            "text or json (docs/schema/doctor.schema.json)", "exit status: 0 the import would work, 1 it would"
                + " fail, 2 doctor could not tell (it says why) or a usage error\n"));
        return Exit.PASSED;
      }
      if (parsed.format() != Format.TEXT && parsed.format() != Format.JSON) {
        throw new UsageException("--format " + parsed.format().name().toLowerCase(java.util.Locale.ROOT)
            + ": doctor prints text or json");
      }
    } catch (UsageException e) {
      return error(io, e.getMessage());
    }
    DoctorReport report;
    try {
      report = Doctor.examine(new Configuration(parsed.values(), io.workingFolder()).doctor(io.environment()));
    } catch (ParameterException e) {
      return error(io, e.describe(e.parameter().option(), " "));
    } catch (DoctorException e) {
      return error(io, e.getMessage());
    }
    if (parsed.format() == Format.JSON) {
      io.out().print(report.json());
    } else {
      report.lines().forEach(line -> io.out().println(Printable.line(line)));
    }
    io.out().flush();
    return report.verdict().exitStatus();
  }

  private int error(Io io, String message) {
    io.err().println(Printable.line("te-wheel doctor: " + message));
    return Exit.ERROR;
  }
}
