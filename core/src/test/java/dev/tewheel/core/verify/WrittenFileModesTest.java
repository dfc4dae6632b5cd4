package dev.tewheel.core.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.io.AtomicFiles;
import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.gate.ReportKind;
import dev.tewheel.core.gate.ReportWriter;
import dev.tewheel.core.jar.WheelLibJar;
import dev.tewheel.core.pack.PackRequest;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every file te-wheel writes gets the mode any tool's output gets, 0666 less the umask: a child JVM started under
 * {@code umask 022} or {@code 077} by sh writes each kind, and the parent reads the modes.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class WrittenFileModesTest {
  private static final FileTime TIME = FileTime.from(Instant.parse("2026-01-01T00:00:00Z"));

  private static final String WHEEL = "transformer_engine-2.9.0-py3-none-manylinux_2_34_x86_64.whl";

  @TempDir Path temp;

  private static PackRequest request(Path staging, Path out) {
    return PackRequest.of(staging, "transformer_engine", "2.9.0", "manylinux_2_34_x86_64", out).withTimestamp(TIME);
  }

  /** Entry point of the child: writes each kind of output under args[0]. */
  public static void main(String[] args) throws Exception {
    Path out = Files.createDirectories(Path.of(args[0]));
    AtomicFiles.writeString(out.resolve("plain.txt"), "text\n");
    Path staging = out.resolve("staging");
    Path wheelLib = staging.resolve("transformer_engine/wheel_lib");
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(), wheelLib)
        .withTimestamp(TIME).withStateFile(out.resolve("state.json")));
    Files.writeString(wheelLib.resolveSibling("__init__.py"), ""); // the Python package pack requires (an input)
    PackedWheel good = PackedWheel.packAndVerify(request(staging, out.resolve("dist")),
        whl -> VerifyRequest.wheel(whl).withReportDirectory(out.resolve("reports")));
    if (!good.passed()) {
      throw new IllegalStateException(good.verification().toString());
    }
    WheelLibJar.write(new WheelLibJar.Request(wheelLib, WheelLibJar.DEFAULT_RESOURCE_FOLDER,
        out.resolve("natives-linux-x86_64-cu12.jar"), TIME));
    Files.copy(StandIns.defect(StandIns.Defect.TE_LAZY_BINDING), wheelLib.resolve("libtransformer_engine.so"),
        StandardCopyOption.REPLACE_EXISTING);
    PackedWheel bad = PackedWheel.packAndVerify(request(staging, out.resolve("rejected")),
        VerifyRequest::wheel);
    if (bad.passed()) {
      throw new IllegalStateException("the broken wheel passed");
    }
  }

  @ParameterizedTest(name = "umask {0}")
  @CsvSource({"022, rw-r--r--", "077, rw-------"})
  void everyWrittenFileHasTheModeTheUmaskGives(String umask, String expected) throws Exception {
    Path out = temp.resolve("out");
    Process child = new ProcessBuilder("sh", "-c", "umask " + umask + "; exec \"$0\" -cp \"$1\" \"$2\" \"$3\"",
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), System.getProperty("java.class.path"),
        WrittenFileModesTest.class.getName(), out.toString())
        .redirectErrorStream(true).redirectOutput(temp.resolve("child.log").toFile()).start();
    assertTrue(child.waitFor(4, TimeUnit.MINUTES), "the child did not finish");
    assertEquals(0, child.exitValue(), Files.readString(temp.resolve("child.log")));

    Map<String, String> modes = new LinkedHashMap<>();
    for (String file : List.of("plain.txt", "state.json", "dist/" + WHEEL, "reports/report.json",
        "reports/" + ReportKind.VERIFY.junitFileName(), "rejected/" + WHEEL + PackedWheel.REJECTED_SUFFIX,
        "natives-linux-x86_64-cu12.jar")) {
      modes.put(file, PosixFilePermissions.toString(Files.getPosixFilePermissions(out.resolve(file))));
    }
    Map<String, String> wanted = new LinkedHashMap<>();
    modes.keySet().forEach(file -> wanted.put(file, expected));
    assertEquals(wanted, modes);
    // The tree assemble writes is packed as it is: its modes are fixed, whatever the umask (reproducible).
    assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(
        out.resolve("staging/transformer_engine/wheel_lib/" + Layout.MANIFEST))));
  }
}
