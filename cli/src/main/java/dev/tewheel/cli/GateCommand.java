package dev.tewheel.cli;

import dev.tewheel.json.Printable;
import dev.tewheel.core.goal.Configuration;
import dev.tewheel.core.goal.ParameterException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.List;

/**
 * A command that is a goal: verify, diff, pack. It parses its command line ({@link Options}), hands the values to
 * core's {@link Configuration} (as the goal hands its parameters), runs the same core entry point as the goal and
 * prints what the goal logs; a value core refuses is a usage error naming the option.
 */
abstract class GateCommand extends Command {
  private final String goal;
  private final Options.Spec spec;
  private final String description;

  /**
   * @param goal the goal this command is, e.g. te:verify-wheel-lib
   * @param description what the command does, for its --help
   */
  GateCommand(String name, String goal, Options.Spec spec, String synopsis, String summary, String description) {
    super(new Usage(name, synopsis, summary));
    this.goal = goal;
    this.spec = spec;
    this.description = description;
  }

  /**
   * Runs the command on its parsed, unchecked values.
   *
   * @return the exit status
   * @throws ParameterException for a value core refuses (exit 2)
   * @throws UsageException for operands the command cannot use (exit 2)
   * @throws IOException when an input cannot be read (exit 2)
   */
  abstract int run(Options.Parsed parsed, Configuration configuration, Output output, Io io)
      throws UsageException, IOException;

  @Override
  final int run(List<String> args, Io io) {
    Options.Parsed parsed;
    try {
      parsed = Options.parse(spec, args);
    } catch (UsageException e) {
      return error(io, e.getMessage());
    }
    if (parsed.help()) {
      io.out().print(Help.of(usage().name(), goal, spec, description));
      return Exit.PASSED;
    }
    try {
      return run(parsed, new Configuration(parsed.values(), io.workingFolder()), new Output(io, parsed.format()), io);
    } catch (ParameterException e) {
      return error(io, e.describe(e.parameter().option(), " "));
    } catch (UsageException e) {
      return error(io, e.getMessage());
    } catch (IOException e) {
      return error(io, "could not read its input: " + describe(e));
    } catch (IllegalArgumentException e) {
      // A request core refuses once it has read its input (as the goal's "is misconfigured").
      return error(io, e.getMessage());
    }
  }

  /** An I/O error as a sentence that names the file: the JDK's messages for these are the bare path. */
  static String describe(IOException e) {
    if (e instanceof NoSuchFileException n) {
      return n.getFile() + ": no such file or folder" + (n.getReason() == null ? "" : " (" + n.getReason() + ")");
    }
    if (e instanceof AccessDeniedException a) {
      return a.getFile() + ": permission denied";
    }
    return e.getMessage() == null ? e.toString() : e.getMessage();
  }

  /** Says what is wrong, on standard error; the exit status of a usage or I/O error. */
  final int error(Io io, String message) {
    io.err().println(Printable.line("te-wheel " + usage().name() + ": " + message));
    return Exit.ERROR;
  }
}
