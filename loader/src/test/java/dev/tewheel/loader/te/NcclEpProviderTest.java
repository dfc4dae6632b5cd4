package dev.tewheel.loader.te;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.standins.StandIns;
import dev.tewheel.standins.StandIns.Defect;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TE's NCCL EP provider rule on the stand-ins' real NCCL EP builds, laid out as TE's wheel ships them
 * ({@code wheel_lib/libnccl_ep.so}, {@code wheel_lib/nccl_ep/include}): the library it opens, the major it accepts,
 * and that the JIT takes no kernel headers from a home an empty NCCL_EP_HOME does not name.
 */
class NcclEpProviderTest {
  @TempDir Path temp;

  /** A wheel_lib folder: the core's folder, with NCCL EP's library beside it and the shipped headers. */
  private Path wheelLib(Path library, Path include) throws IOException {
    Path wheelLib = Files.createDirectories(temp.resolve("wheel_lib"));
    Files.copy(library, wheelLib.resolve("libnccl_ep.so"), StandardCopyOption.REPLACE_EXISTING);
    copyTree(include, wheelLib.resolve("nccl_ep/include"));
    return wheelLib;
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (var files = Files.walk(from)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Path target = to.resolve(from.relativize(f).toString());
        Files.createDirectories(target.getParent());
        Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  @Test
  void theShippedLibraryOfTheShippedHeadersMajorIsOpenedAndAccepted() throws IOException {
    Path wheelLib = wheelLib(StandIns.ncclEpLibrary(), StandIns.ncclEpHome().resolve("include"));
    NcclEpProvider.Choice choice = NcclEpProvider.choice(Map.of(), wheelLib);
    assertEquals(Optional.of(wheelLib.resolve("nccl_ep")), choice.home());
    assertEquals(StandIns.NCCL_EP_MAJOR, choice.requiredMajor(), choice.majorSource());
    assertEquals(Optional.of(wheelLib.resolve("libnccl_ep.so")), choice.accepted());
  }

  @Test
  void aLibraryOfAnotherMajorThanTheHeadersIsShippedButNeverOpened() throws IOException {
    // The flaw found in review of TE's change: a glob said "available" for a major the loader then refused.
    Path major1 = StandIns.defect(Defect.NCCL_EP_MAJOR_1_HOME).resolve("lib/libnccl_ep.so.1.0.0");
    Path wheelLib = wheelLib(major1, StandIns.ncclEpHome().resolve("include"));
    NcclEpProvider.Choice choice = NcclEpProvider.choice(Map.of(), wheelLib);
    assertTrue(choice.shipped());
    assertEquals(Optional.empty(), choice.opened());
    assertEquals(Optional.empty(), choice.accepted());
    // The same library with its own headers (NCCL_EP_MAJOR 1) is the provider's.
    Path wheelLib1 = wheelLib(major1, StandIns.defect(Defect.NCCL_EP_MAJOR_1_HOME).resolve("include"));
    NcclEpProvider.Choice one = NcclEpProvider.choice(Map.of(), wheelLib1);
    assertEquals(1, one.requiredMajor());
    assertEquals(Optional.of(wheelLib1.resolve("libnccl_ep.so")), one.accepted());
  }

  @Test
  void aLibraryWithoutAFunctionTheProviderResolvesIsOpenedAndRefusedByTheSelectionRule() throws IOException {
    Path wheelLib = wheelLib(StandIns.defect(Defect.NCCL_EP_WITHOUT_COMBINE), StandIns.ncclEpHome()
        .resolve("include"));
    NcclEpProvider.Choice choice = NcclEpProvider.choice(Map.of(), wheelLib);
    assertEquals(Optional.of(wheelLib.resolve("libnccl_ep.so")), choice.opened());
    assertEquals(Optional.empty(), choice.accepted());
    assertTrue(choice.selection().get().candidates().get(0).reason().contains("ncclEpCombine"),
        choice.selection().get().candidates().get(0).reason());
  }

  @Test
  void ncclEpHomeComesBeforeTheCoresFolderAndAnEmptyValueCountsAsUnset() throws IOException {
    Path wheelLib = wheelLib(StandIns.ncclEpLibrary(), StandIns.ncclEpHome().resolve("include"));
    Path home = StandIns.ncclEpHome();
    NcclEpProvider.Choice set = NcclEpProvider.choice(Map.of("NCCL_EP_HOME", home.toString()), wheelLib);
    assertEquals(Optional.of(home.resolve("lib/libnccl_ep.so.0")), set.accepted());
    NcclEpProvider.Choice empty = NcclEpProvider.choice(Map.of("NCCL_EP_HOME", ""), wheelLib);
    assertEquals(Optional.of(wheelLib.resolve("libnccl_ep.so")), empty.accepted());
  }

  @Test
  void anEmptyNcclEpHomeNamesNoHomeSoTheProviderTriesOnlyItsOwnFolder() throws IOException {
    // ep-home layout (wheel_lib/nccl_ep/lib): the provider sets NCCL_EP_HOME without overwriting, so an empty value
    // stays empty and its lib/ is never tried (the stand-in TE's load_nccl_ep does the same); nor does the JIT read
    // <core>/nccl_ep/include then.
    Path wheelLib = Files.createDirectories(temp.resolve("wheel_lib"));
    copyTree(StandIns.ncclEpHome(), wheelLib.resolve("nccl_ep"));
    assertEquals(Optional.of(wheelLib.resolve("nccl_ep/lib/libnccl_ep.so.0")),
        NcclEpProvider.choice(Map.of(), wheelLib).accepted());
    NcclEpProvider.Choice empty = NcclEpProvider.choice(Map.of("NCCL_EP_HOME", ""), wheelLib);
    assertEquals(List.of(Optional.empty(), List.of(), Optional.empty()),
        List.of(empty.home(), empty.candidates(), empty.accepted()));
    assertEquals(Optional.empty(), NcclEpJit.lookup(Map.of("NCCL_EP_HOME", ""), NcclEpProvider.home(null, wheelLib),
        "TE's provider", Optional.empty(), Optional.empty()).sourceDir().folder());
  }
}
