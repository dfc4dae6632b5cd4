package dev.tewheel.cli;

import dev.tewheel.json.Printable;
import java.io.PrintStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;

/**
 * {@code te-wheel runtime ...}: te-runtime's availability report (its CLI, {@code dev.tewheel.runtime.cli.Main},
 * whose exit statuses are te-wheel's). te-runtime needs Java 22 (java.lang.foreign); on an older Java this says
 * which Java to use instead of failing with UnsupportedClassVersionError, so it reaches te-runtime's classes only
 * through a method handle.
 */
final class RuntimeCommand extends Command {
  /** java.lang.foreign is final from Java 22. */
  static final int REQUIRED_JAVA = 22;

  private static final String MAIN = "dev.tewheel.runtime.cli.Main";

  private static final Usage USAGE = new Usage("runtime",
      "[--wheel-lib DIR] [--nccl-library FILE] [--load] [--json]",
      "te-runtime's NCCL EP availability report, as a Java application sees it (Java 22+)");

  private final int feature;

  RuntimeCommand() {
    this(Runtime.version().feature());
  }

  /** @param feature the Java feature release to assume, for a test of the older-Java message */
  RuntimeCommand(int feature) {
    super(USAGE);
    this.feature = feature;
  }

  @Override
  int run(List<String> args, Io io) {
    if (feature < REQUIRED_JAVA) {
      io.err().println("te-wheel runtime needs Java " + REQUIRED_JAVA + " or newer (te-runtime loads libraries with"
          + " java.lang.foreign); this is Java " + Runtime.version() + " from " + System.getProperty("java.home")
          + ". Run it with a JDK " + REQUIRED_JAVA + "+ java: <jdk>/bin/java -jar te-wheel-cli.jar runtime ..."
          + " (verify, diff, pack and inspect run on this Java)");
      return Exit.ERROR;
    }
    try {
      // This class's own lookup: in te-wheel's pip wheel the command and te-runtime are one named module that
      // exports nothing, where a public lookup would be refused.
      MethodHandle run = MethodHandles.lookup().findStatic(Class.forName(MAIN), "run",
          MethodType.methodType(int.class, String[].class, PrintStream.class, PrintStream.class));
      return (int) run.invokeExact(args.toArray(String[]::new), io.out(), io.err());
    } catch (ReflectiveOperationException e) {
      io.err().println(Printable.line("te-wheel runtime: te-runtime is not on the class path (" + e + "); run the"
          + " te-wheel-cli jar, which holds it"));
      return Exit.ERROR;
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }
}
