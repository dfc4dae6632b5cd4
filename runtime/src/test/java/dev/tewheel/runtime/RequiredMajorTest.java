package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.ncclep.NcclEp;
import dev.tewheel.runtime.report.Availability;
import dev.tewheel.standins.StandIns;
import dev.tewheel.standins.StandIns.Defect;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The major the rule accepts: the manifest's, else the configured one (API, te.ncclEpMajor), else 0. */
class RequiredMajorTest {
  @TempDir Path temp;

  @Test
  void theManifestsMajorWinsOverTheConfiguredOne() throws Exception {
    FreshJvm.run(getClass(), "manifestWins", temp);
  }

  @Test
  void aConfiguredMajorIsAcceptedByAvailabilityAndLoadAlike() throws Exception {
    FreshJvm.run(getClass(), "configuredMajor", temp);
  }

  @Test
  void thePropertyConfiguresTheMajorAndAMalformedOneStops() throws Exception {
    FreshJvm.run(getClass(), "propertyMajor", temp);
  }

  static void manifestWins(Path temp) throws Exception {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    Bundles.writeManifest(wheelLib, "default");
    Availability availability = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).ncclEpMajor(1)
        .build().availability();
    assertEquals(0, availability.requiredMajor());
    assertEquals("the manifest; the configured 1 does not apply to a bundle built for 0",
        availability.requiredMajorSource().detail());
    assertTrue(availability.available(), availability.toString());
  }

  static void configuredMajor(Path temp) throws Exception {
    Path wheelLib = Files.createDirectories(temp.resolve("wheel_lib"));
    Files.copy(StandIns.defect(Defect.NCCL_EP_MAJOR_1_HOME).resolve("lib/libnccl_ep.so.1.0.0"),
        wheelLib.resolve("libnccl_ep.so.1.0.0"));
    Files.copy(StandIns.ncclEpLibrary(), wheelLib.resolve("libnccl_ep.so.0.1.0"));
    TeRuntime runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).ncclEpMajor(1).build();
    Availability availability = runtime.availability();
    assertEquals(1, availability.requiredMajor());
    assertEquals("configured: TeRuntime.Builder.ncclEpMajor", availability.requiredMajorSource().detail());
    assertEquals(wheelLib.resolve("libnccl_ep.so.1.0.0"), availability.chosenFile().orElseThrow());
    NcclEp ep = runtime.loadNcclEp();
    assertEquals("1.0.0", ep.version().toString());
    assertEquals(10000, ep.getVersion());
  }

  static void propertyMajor(Path temp) throws Exception {
    Path wheelLib = Files.createDirectories(temp.resolve("wheel_lib"));
    Files.copy(StandIns.ncclEpLibrary(), wheelLib.resolve("libnccl_ep.so.0.1.0"));
    TeRuntime runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build();
    System.setProperty("te.ncclEpMajor", "1");
    Availability availability = runtime.availability();
    assertEquals(1, availability.requiredMajor());
    assertEquals("system property te.ncclEpMajor", availability.requiredMajorSource().detail());
    assertEquals("no acceptable NCCL EP library: libnccl_ep.so.0.1.0: SONAME libnccl_ep.so.0, expected"
        + " libnccl_ep.so.1 (NCCL EP major 1)", availability.reason());
    System.setProperty("te.ncclEpMajor", "one");
    IllegalArgumentException malformed = assertThrows(IllegalArgumentException.class, runtime::availability);
    assertEquals("system property te.ncclEpMajor='one' is not an NCCL EP major version (a number >= 0, e.g. 0)",
        malformed.getMessage());
  }
}
