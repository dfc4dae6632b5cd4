package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.error.LoadException;
import dev.tewheel.runtime.ncclep.NcclEp;
import dev.tewheel.runtime.report.Availability;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another component of the process already loaded a library with the SONAME te-runtime would load: the report says
 * so plainly, instead of a version mismatch nobody can explain.
 */
class LoadedElsewhereTest {
  @TempDir Path temp;

  @Test
  void ncclEpLoadedFromAnotherFolderIsReportedAsSuch() throws Exception {
    FreshJvm.run(getClass(), "ncclEpFromAnotherFolder", temp);
  }

  @Test
  void theSameFileLoadedByAnotherComponentIsShared() throws Exception {
    FreshJvm.run(getClass(), "sameFile", temp);
  }

  @Test
  void anOlderNcclLoadedByAnotherComponentIsTheOneChecked() throws Exception {
    FreshJvm.run(getClass(), "olderNccl", temp);
  }

  static void ncclEpFromAnotherFolder(Path temp) throws Throwable {
    Path other = Files.createDirectories(temp.resolve("other")).resolve("libnccl_ep.so.0.1.0");
    Files.copy(StandIns.ncclEpLibrary(), other);
    Bundles.dlopen(Bundles.NCCL, Bundles.RTLD_NOW | Bundles.RTLD_GLOBAL);
    Bundles.dlopen(other, Bundles.RTLD_NOW);

    TeRuntime runtime = TeRuntime.builder().wheelLib(Bundles.defaultLayout(temp.resolve("wheel_lib")))
        .ncclLibrary(Bundles.NCCL).build();
    Availability availability = runtime.availability();
    assertFalse(availability.available());
    assertEquals(Optional.of(other), availability.loadedElsewhere());
    String expected = "libnccl_ep.so.0 is already loaded by another component from " + other;
    assertTrue(availability.reason().startsWith(expected), availability.reason());

    LoadException refused = assertThrows(LoadException.class, runtime::loadNcclEp);
    assertTrue(refused.getMessage().contains(expected), refused.getMessage());
    assertEquals(Optional.of(other), refused.availability().loadedElsewhere());
  }

  static void sameFile(Path temp) throws Throwable {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    Path link = temp.resolve("link-to-bundle.so");
    Files.createSymbolicLink(link, wheelLib.resolve("libnccl_ep.so"));
    Bundles.dlopen(Bundles.NCCL, Bundles.RTLD_NOW | Bundles.RTLD_GLOBAL);
    Bundles.dlopen(link, Bundles.RTLD_NOW);

    NcclEp ep = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build().loadNcclEp();
    assertTrue(Files.isSameFile(ep.mappedFrom(), wheelLib.resolve("libnccl_ep.so")), ep.mappedFrom().toString());
    assertEquals(100, ep.getVersion());
  }

  static void olderNccl(Path temp) throws Throwable {
    Bundles.dlopen(Bundles.OLD_NCCL, Bundles.RTLD_NOW | Bundles.RTLD_GLOBAL);
    TeRuntime runtime = TeRuntime.builder().wheelLib(Bundles.defaultLayout(temp.resolve("wheel_lib")))
        .ncclLibrary(Bundles.NCCL).build();
    Availability availability = runtime.availability();
    assertFalse(availability.available());
    assertEquals(Optional.of(Bundles.OLD_NCCL), availability.nccl().library());
    assertEquals("2.28.9", availability.nccl().version().orElseThrow().toString());
    assertTrue(availability.reason().startsWith("libnccl.so.2 is already loaded by another component from "
        + Bundles.OLD_NCCL + ", so NCCL EP binds to that copy, not to the configured " + Bundles.NCCL),
        availability.reason());
    assertThrows(LoadException.class, runtime::loadNcclEp);
  }
}
