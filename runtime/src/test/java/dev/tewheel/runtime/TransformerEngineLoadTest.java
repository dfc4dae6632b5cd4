package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.error.LoadException;
import dev.tewheel.runtime.error.UnresolvedSymbolException;
import dev.tewheel.runtime.nccl.Nccl;
import dev.tewheel.runtime.nccl.NcclComm;
import dev.tewheel.runtime.ncclep.NcclEp;
import dev.tewheel.runtime.report.Availability;
import dev.tewheel.runtime.report.EnvironmentSetting;
import dev.tewheel.runtime.te.TeDataType;
import dev.tewheel.runtime.te.TeEpGroupConfig;
import dev.tewheel.runtime.te.TransformerEngine;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loading libtransformer_engine.so sets NCCL_EP_HOME (setenv, overwrite 0) to the folder of the shipped JIT headers
 * first, so TE's own provider and NCCL EP's JIT find the bundle's files, and a user's own value wins.
 */
class TransformerEngineLoadTest {
  @TempDir Path temp;

  @Test
  void setsNcclEpHomeToTheShippedHeadersBeforeLoading() throws Exception {
    FreshJvm.run(getClass(), "setsNcclEpHome", temp);
  }

  @Test
  void aUsersNcclEpHomeWins() throws Exception {
    FreshJvm.run(getClass(), "usersNcclEpHome", temp);
  }

  @Test
  void anNcclEpHomeFoundBundleHasNoTeLibrary() throws Exception {
    FreshJvm.run(getClass(), "ncclEpHomeOnly", temp);
  }

  static void setsNcclEpHome(Path temp) throws Throwable {
    // The ep-home layout with a manifest: NCCL_EP_HOME must be wheel_lib/nccl_ep, where lib/ and include/ are.
    Path wheelLib = Bundles.epHomeLayout(temp.resolve("wheel_lib"));
    Bundles.writeManifest(wheelLib, "ep-home");
    assertNull(Bundles.getenv("NCCL_EP_HOME"));
    // The JDK copies the environment on the first System.getenv call and never reads it again.
    assertNull(System.getenv("NCCL_EP_HOME"));
    TeRuntime runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build();

    TransformerEngine te = runtime.loadTransformerEngine();
    EnvironmentSetting home = te.ncclEpHome().orElseThrow();
    Path expected = wheelLib.resolve("nccl_ep");
    assertEquals(new EnvironmentSetting("NCCL_EP_HOME", expected.toString(), true, expected.toString()), home);
    assertEquals(expected.toString(), Bundles.getenv("NCCL_EP_HOME"));
    assertTrue(Files.isRegularFile(Path.of(Bundles.getenv("NCCL_EP_HOME"), "include/nccl_ep/config.h")));
    assertNull(System.getenv("NCCL_EP_HOME"), "System.getenv's copy does not see setenv");
    assertEquals(wheelLib.resolve("libtransformer_engine.so"), te.file());
    assertEquals("NCCL_EP_HOME=" + expected + " (set by te-runtime)", home.toString());

    // TE's provider, on nvte_ep_initialize, finds NCCL EP through $NCCL_EP_HOME/lib; te-runtime's own load of the
    // manifest's file then shares that one mapping.
    Nccl nccl = te.nccl();
    try (NcclComm comm = nccl.commInitRank(1, nccl.uniqueId(), 0); Arena arena = Arena.ofConfined()) {
      TeEpGroupConfig group = TeEpGroupConfig.builder().epSize(1).numExperts(2).maxTokensPerRank(4).hiddenDim(8)
          .maxTokenDtype(TeDataType.FLOAT32).numTopk(1).build();
      te.epInitialize(comm, group);
      assertEquals(java.util.List.of(wheelLib.resolve("nccl_ep/lib/libnccl_ep.so.0").toString()),
          TeEpSequenceTest.mapped("libnccl_ep"));
      NcclEp ep = runtime.loadNcclEp();
      assertEquals(wheelLib.resolve("nccl_ep/lib/libnccl_ep.so.0"), ep.file());
      assertEquals(100, ep.getVersion());
      te.epShutdown();
    }
    assertThrows(UnresolvedSymbolException.class, () -> te.function("nvte_no_such", FunctionDescriptor.ofVoid()));

    // Loading again keeps the value te-runtime set, and still says te-runtime set it.
    assertTrue(runtime.loadTransformerEngine().ncclEpHome().orElseThrow().setByRuntime());
    // A later search does not take te-runtime's own NCCL_EP_HOME for a user's choice.
    Availability availability = TeRuntime.builder().ncclLibrary(Bundles.NCCL).build().availability();
    assertTrue(availability.searched().get(3).describe().startsWith("set by te-runtime"),
        availability.searched().toString());
  }

  static void usersNcclEpHome(Path temp) throws Throwable {
    Bundles.setenv("NCCL_EP_HOME", "/users/choice");
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    TransformerEngine te = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build()
        .loadTransformerEngine();
    EnvironmentSetting home = te.ncclEpHome().orElseThrow();
    assertFalse(home.setByRuntime());
    assertEquals("/users/choice", home.value());
    assertEquals(Optional.of("/users/choice"), home.userValue());
    assertEquals(wheelLib.resolve("nccl_ep").toString(), home.proposed());
    assertEquals("/users/choice", Bundles.getenv("NCCL_EP_HOME"));
    assertEquals("NCCL_EP_HOME=/users/choice (already set; te-runtime would have set " + wheelLib.resolve("nccl_ep")
        + ")", home.toString());
  }

  static void ncclEpHomeOnly(Path temp) throws Throwable {
    Path home = Bundles.defaultLayout(temp.resolve("unused")).getParent().resolve("home");
    Bundles.copyTree(dev.tewheel.standins.StandIns.ncclEpHome(), home);
    Bundles.setenv("NCCL_EP_HOME", home.toString());
    LoadException refused = assertThrows(LoadException.class, () -> TeRuntime.builder().ncclLibrary(Bundles.NCCL)
        .build().loadTransformerEngine());
    assertTrue(refused.getMessage().contains("has no libtransformer_engine.so"), refused.getMessage());
    // The same search still finds NCCL EP there.
    assertTrue(refused.availability().available(), refused.availability().toString());
  }
}
