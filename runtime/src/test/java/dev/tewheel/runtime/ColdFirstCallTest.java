package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.report.Availability;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cold first call (availability(), loadNcclEp(), getVersion() in a JVM that has loaded nothing) makes two
 * downcall shapes: Libc's and the version getters'. Every other shape is a class the JDK generates on the spot, and
 * no AOT cache keeps it (docs/performance.md, the cold first call).
 */
class ColdFirstCallTest {
  @TempDir Path temp;

  @Test
  void theColdFirstCallMakesOnlyLibcsAndTheVersionGettersDowncallShapes() throws Exception {
    Path log = temp.resolve("class-load.log");
    FreshJvm.run(getClass(), "firstCall", temp, Map.of(), List.of("-Xlog:class+load:file=" + log));
    List<String> stubs = Files.readAllLines(log).stream()
        .filter(line -> line.contains("jdk.internal.foreign.abi.DowncallStub")).toList();
    assertEquals(2, stubs.size(), "one generated DowncallStub per shape:\n" + String.join("\n", stubs));
  }

  static void firstCall(Path temp) throws Exception {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    TeRuntime runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build();
    Availability availability = runtime.availability();
    assertTrue(availability.available(), availability.reason());
    assertEquals(StandIns.NCCL_EP_VERSION_CODE, runtime.loadNcclEp().getVersion());
  }
}
