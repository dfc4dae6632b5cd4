package dev.tewheel.bundle.ncclep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class NcclEpNamingTest {
  @Test
  void readsTheVersionFromTheStandInHeader() throws Exception {
    String header = Files.readString(StandIns.ncclEpHome().resolve("include/nccl_ep.h"));
    assertEquals(new NcclEpVersion(0, 1, 0), NcclEpVersion.fromHeader(header));
    assertEquals(OptionalInt.of(0), NcclEpVersion.majorFromHeader(header));
    assertEquals(100, NcclEpVersion.fromHeader(header).code());
  }

  @Test
  void toleratesCommentsAndParenthesesButNotAMissingMacro() {
    String header = "#define NCCL_EP_MAJOR (2) // api\n#  define NCCL_EP_MINOR 30 /* x */\n#define NCCL_EP_PATCH 4\n";
    assertEquals(new NcclEpVersion(2, 30, 4), NcclEpVersion.fromHeader(header));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> NcclEpVersion.fromHeader("#define NCCL_EP_MAJOR 1\n#define NCCL_EP_PATCH 0\n"));
    assertTrue(e.getMessage().contains("NCCL_EP_MINOR"), e.getMessage());
  }

  @Test
  void versionCodesRoundTripAndOrder() {
    assertEquals(new NcclEpVersion(1, 2, 3), NcclEpVersion.fromCode(10203));
    assertTrue(new NcclEpVersion(0, 10, 0).compareTo(new NcclEpVersion(0, 9, 9)) > 0);
    assertEquals("0.1.0", NcclEpVersion.fromCode(100).toString());
  }

  @Test
  void knowsTheThreeFileNameForms() {
    assertEquals(OptionalInt.empty(), NcclEpLibraryName.parse("libnccl_ep.so").orElseThrow().major());
    assertEquals(OptionalInt.of(0), NcclEpLibraryName.parse("libnccl_ep.so.0").orElseThrow().major());
    assertEquals(Optional.of(new NcclEpVersion(1, 0, 2)),
        NcclEpLibraryName.parse("libnccl_ep.so.1.0.2").orElseThrow().version());
    for (String other : new String[] {"libnccl_ep.a", "libnccl_ep.so.1.0", "libnccl.so.2", "libnccl_ep.so.x"}) {
      assertEquals(Optional.empty(), NcclEpLibraryName.parse(other), other);
    }
    assertEquals("libnccl_ep.so.3", NcclEpLibraryName.soname(3));
    assertEquals(OptionalInt.of(3), NcclEpLibraryName.sonameMajor("libnccl_ep.so.3"));
    assertEquals(OptionalInt.empty(), NcclEpLibraryName.sonameMajor("libnccl_ep.so.3.0.0"));
  }
}
