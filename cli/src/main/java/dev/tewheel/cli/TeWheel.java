package dev.tewheel.cli;

import dev.tewheel.core.goal.TeWheelVersion;
import dev.tewheel.json.Printable;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The te-wheel command: {@code te-wheel <command> [options] ...}, the goals of te-maven-plugin (verify, diff, pack)
 * and the ELF inspect and te-runtime reports, without Maven. A plain main class for Java 17:
 * {@code java -cp te-wheel-cli.jar dev.tewheel.cli.TeWheel} (or {@code java -jar}).
 */
public final class TeWheel {
  static final String EXIT_STATUS = "exit status: 0 passed, 1 failed (a finding at or above --fail-on; runtime: not"
      + " available), 2 usage or I/O error\n";

  private static final List<Command> COMMANDS = List.of(new VerifyCommand(), new VerifyReleaseCommand(),
      new DiffCommand(), new PackCommand(), new InspectCommand(), new RuntimeCommand(), new DoctorCommand());

  private TeWheel() {}

  /**
   * Runs the command the arguments name and exits with its status (0 passed, 1 failed, 2 usage or I/O error).
   *
   * @param args the command and its options, e.g. {@code verify --fail-on warning dist/x.whl}
   */
  public static void main(String[] args) {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(System.err, true, StandardCharsets.UTF_8);
    System.exit(run(args, new Io(out, err, System::getenv, Path.of("").toAbsolutePath())));
  }

  /** Runs te-wheel; returns the exit status ({@link Exit}). */
  static int run(String[] args, Io io) {
    if (args.length == 0) {
      io.err().print(usage());
      return Exit.ERROR;
    }
    String first = args[0];
    if (first.equals("--version") || first.equals("-V")) {
      io.out().println("te-wheel " + TeWheelVersion.version());
      return Exit.PASSED;
    }
    if (first.equals("--help") || first.equals("-h") || first.equals("help")) {
      io.out().print(usage());
      return Exit.PASSED;
    }
    Optional<Command> command = COMMANDS.stream().filter(c -> c.usage().name().equals(first)).findFirst();
    if (command.isEmpty()) {
      io.err().println(Printable.line("te-wheel: unknown command '" + first + "'; the commands are "
          + String.join(", ", COMMANDS.stream().map(c -> c.usage().name()).toList()) + " (te-wheel --help)"));
      return Exit.ERROR;
    }
    return command.get().run(Arrays.asList(args).subList(1, args.length), io);
  }

  static String usage() {
    StringBuilder out = new StringBuilder("usage: te-wheel <command> [options] ...\n"
        + "Verifies, compares and packs the native part of a Transformer Engine wheel, as te-maven-plugin's goals do,"
        + " without Maven.\n\ncommands:\n");
    for (Command c : COMMANDS) {
      Command.Usage usage = c.usage();
      out.append(String.format("  %-8s %s%n  %-8s   %s%n", usage.name(), usage.synopsis(), "", usage.summary()));
    }
    out.append("\n  --version  te-wheel's version\n  --help     this text; te-wheel <command> --help describes a"
        + " command\n\n").append(EXIT_STATUS);
    return out.toString();
  }
}
