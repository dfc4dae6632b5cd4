package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.error.LoadException;
import dev.tewheel.runtime.error.UnresolvedSymbolException;
import dev.tewheel.runtime.internal.ffm.Libc;
import dev.tewheel.runtime.internal.ffm.Symbols;
import dev.tewheel.runtime.ncclep.NcclEp;
import dev.tewheel.runtime.report.Availability;
import dev.tewheel.standins.StandIns;
import dev.tewheel.standins.StandIns.Defect;
import java.lang.foreign.FunctionDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An NCCL EP lacking one ncclEp* function fails load() with that name, not a later call. */
class MissingFunctionTest {
  @TempDir Path temp;

  @Test
  void loadFailsNamingTheMissingFunction() throws Exception {
    FreshJvm.run(getClass(), "loadWithoutCombine", temp);
  }

  @Test
  void theDlsymCheckAfterDlopenNamesItToo() throws Exception {
    FreshJvm.run(getClass(), "dlsymWithoutCombine", temp);
  }

  static void loadWithoutCombine(Path temp) throws Exception {
    Path wheelLib = Files.createDirectories(temp.resolve("wheel_lib"));
    Files.copy(StandIns.defect(Defect.NCCL_EP_WITHOUT_COMBINE), wheelLib.resolve("libnccl_ep.so.0.1.0"));
    TeRuntime runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build();
    Availability availability = runtime.availability();
    assertFalse(availability.available());
    assertEquals("SONAME libnccl_ep.so.0 matches major 0, but it does not define ncclEpCombine",
        availability.candidates().get(0).reason());
    LoadException refused = assertThrows(LoadException.class, runtime::loadNcclEp);
    assertTrue(refused.getMessage().contains("does not define ncclEpCombine"), refused.getMessage());
  }

  /** load() reads the symbol table before dlopen, and checks again with dlsym after it; this is the second check. */
  static void dlsymWithoutCombine(Path temp) throws Throwable {
    Path library = StandIns.defect(Defect.NCCL_EP_WITHOUT_COMBINE);
    Bundles.dlopen(Bundles.NCCL, Bundles.RTLD_NOW | Bundles.RTLD_GLOBAL);
    Libc.Opened opened = Libc.dlopen(library.toString(), Libc.RTLD_NOW);
    assertTrue(opened.ok(), opened.error());
    Symbols symbols = new Symbols(opened.handle(), library);
    assertEquals(List.of("ncclEpCombine"), NcclEp.REQUIRED_FUNCTIONS.stream().filter(name -> !symbols.defines(name)).toList());
    UnresolvedSymbolException missing = assertThrows(UnresolvedSymbolException.class,
        () -> symbols.function("ncclEpCombine", FunctionDescriptor.ofVoid()));
    assertEquals("Unresolved symbol: ncclEpCombine in " + library, missing.getMessage());
  }
}
