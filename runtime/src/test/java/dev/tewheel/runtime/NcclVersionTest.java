package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.report.NcclVersion;
import org.junit.jupiter.api.Test;

class NcclVersionTest {
  @Test
  void decodesBothCodeSchemes() {
    assertEquals(new NcclVersion(2, 30, 4), NcclVersion.fromCode(23004));
    assertEquals(new NcclVersion(2, 27, 3), NcclVersion.fromCode(22703));
    assertEquals(new NcclVersion(2, 7, 8), NcclVersion.fromCode(2708));
    assertEquals("2.30.4", NcclVersion.EP_MINIMUM.toString());
  }

  @Test
  void parsesAndOrders() {
    assertEquals(NcclVersion.EP_MINIMUM, NcclVersion.parse(" 2.30.4 "));
    assertTrue(NcclVersion.parse("2.30.10").compareTo(NcclVersion.EP_MINIMUM) > 0);
    assertTrue(NcclVersion.parse("2.9.9").compareTo(NcclVersion.EP_MINIMUM) < 0);
    assertEquals("'2.30' is not an NCCL version MAJOR.MINOR.PATCH, e.g. 2.30.4",
        assertThrows(IllegalArgumentException.class, () -> NcclVersion.parse("2.30")).getMessage());
    assertThrows(IllegalArgumentException.class, () -> NcclVersion.fromCode(0));
  }
}
