package dev.tewheel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.goal.Parameters;
import dev.tewheel.core.goal.TeWheelVersion;
import dev.tewheel.json.Json;
import dev.tewheel.standins.StandIns;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** te-wheel's verbs, help, version and exit statuses. */
class TeWheelTest {
  @TempDir Path temp;

  private record Run(int exit, String out, String err) {}

  private Run run(String... args) {
    return capture(io -> TeWheel.run(args, io));
  }

  /** The runtime command as on a Java of {@code feature}. */
  private Run runtime(int feature, String... args) {
    return capture(io -> new RuntimeCommand(feature).run(List.of(args), io));
  }

  private Run capture(java.util.function.ToIntFunction<Io> command) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = command.applyAsInt(new Io(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.<String, String>of()::get, temp));
    return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void versionIsTheBuildsAndHelpListsEveryCommand() {
    Run version = run("--version");
    assertEquals(0, version.exit());
    assertEquals("te-wheel " + TeWheelVersion.version() + "\n", version.out());
    assertTrue(TeWheelVersion.version().matches("\\d+\\.\\d+\\.\\d+.*"), TeWheelVersion.version());
    Run help = run("--help");
    assertEquals(0, help.exit());
    for (String command : List.of("verify", "diff", "pack", "inspect", "runtime", "doctor")) {
      assertTrue(help.out().contains("\n  " + command + " "), help.out());
    }
    assertTrue(help.out().contains("exit status: 0 passed, 1 failed"), help.out());
  }

  @Test
  void noCommandOrAnUnknownOneIsAUsageError() {
    Run none = run();
    assertEquals(2, none.exit());
    assertTrue(none.err().startsWith("usage: te-wheel <command>"), none.err());
    Run unknown = run("verfy", "x.whl");
    assertEquals(2, unknown.exit());
    assertEquals("te-wheel: unknown command 'verfy'; the commands are verify, verify-release, diff, pack, inspect,"
        + " runtime, doctor"
        + " (te-wheel --help)\n", unknown.err());
  }

  @Test
  void eachGateCommandsHelpListsTheGoalsParametersAsOptions() {
    Run help = run("verify", "--help");
    assertEquals(0, help.exit());
    for (var parameter : Parameters.VERIFY_WHEEL_LIB) {
      assertTrue(help.out().contains("\n  " + parameter.option() + " " + parameter.valueName()), parameter.option());
    }
    assertTrue(help.out().contains("--format FORMAT"), help.out());
    Run pack = run("pack", "--help");
    assertTrue(pack.out().contains("--staging-directory DIR") && pack.out().contains("--cuda-major N"), pack.out());
  }

  @Test
  void aValueCoreRefusesIsAUsageErrorNamingTheOption() {
    Run run = run("verify", "--max-wheel-size", "1GB", "x.whl");
    assertEquals(2, run.exit());
    assertEquals("te-wheel verify: --max-wheel-size '1GB': '1GB' is not a size: expected a number with KiB, MiB or"
        + " GiB (e.g. 500MiB, 1.5GiB), or a number of bytes\n", run.err());
    assertEquals("", run.out());
  }

  @Test
  void aMissingInputIsAnIoError() {
    Run run = run("verify", "nothing-here.whl");
    assertEquals(2, run.exit());
    assertEquals("te-wheel verify: could not read its input: " + temp.resolve("nothing-here.whl")
        + ": no such file or folder (neither a .whl nor a folder)\n", run.err());
  }

  @Test
  void inspectIsTheElfReadersUnderTeWheelsName() throws Exception {
    Run run = run("inspect", StandIns.ncclEpLibrary().toString());
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().contains("libnccl_ep.so.0"), run.out());
    Run json = run("inspect", "--json", StandIns.ncclEpLibrary().toString());
    assertTrue(Json.parse(json.out()) instanceof List<?>, json.out());
    // An unreadable file is te-wheel's I/O error.
    Path empty = Files.createFile(temp.resolve("empty.so"));
    Run unreadable = run("inspect", empty.toString());
    assertEquals(2, unreadable.exit());
    assertTrue(unreadable.err().startsWith("te-wheel inspect: " + empty + ": not an ELF file"), unreadable.err());
  }

  @Test
  void runtimeOnAJavaOlderThan22SaysWhichJavaItNeeds() {
    Run run = runtime(17, "--help");
    assertEquals(2, run.exit());
    assertTrue(run.err().startsWith("te-wheel runtime needs Java 22 or newer (te-runtime loads libraries with"
        + " java.lang.foreign); this is Java "), run.err());
    assertTrue(run.err().contains("(verify, diff, pack and inspect run on this Java)"), run.err());
  }

  @Test
  void runtimeOnJava22OrNewerIsTeRuntimesReportWithTeWheelsExitStatuses() {
    assertTrue(Runtime.version().feature() >= 22, "cli's tests run on the JDK 22+ toolchain the module selects");
    Run help = runtime(Runtime.version().feature(), "--help");
    assertEquals(0, help.exit(), help.err());
    assertTrue(help.out().startsWith("Usage: te-wheel runtime "), help.out());
    Run bad = runtime(Runtime.version().feature(), "--bogus");
    assertEquals(2, bad.exit());
  }
}
