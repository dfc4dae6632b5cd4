package dev.tewheel.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.gatefixtures.GateFixtures;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PT_GNU_STACK and the GNU property note, on libraries gcc links with the options that set them. */
class StackAndPropertiesTest {
  @Test
  void stackSegment() throws IOException, InterruptedException {
    ElfFile exec = ElfFile.read(GateFixtures.execStack()); // gcc -z execstack
    assertTrue(exec.stackSegment().isPresent());
    assertTrue(exec.executableStack());
    ElfFile none = ElfFile.read(GateFixtures.noGnuStack()); // a linker script whose PHDRS omits PT_GNU_STACK
    assertTrue(none.stackSegment().isEmpty());
    assertTrue(none.executableStack(), "no PT_GNU_STACK means an executable stack to glibc");
    ElfFile good = ElfFile.read(GateFixtures.noExecStack());
    assertEquals(ProgramHeader.PF_R | ProgramHeader.PF_W, good.stackSegment().orElseThrow().flags());
    assertFalse(good.executableStack());
    assertFalse(ElfFile.read(StandIns.transformerEngine()).executableStack());
    assertFalse(ElfFile.read(StandIns.aarch64("libtransformer_engine.so")).executableStack());
    // readelf agrees on each.
    assertTrue(Tools.check("readelf", "-lW", GateFixtures.execStack().toString()).matches("(?s).*GNU_STACK.*RWE.*"));
    assertFalse(Tools.check("readelf", "-lW", GateFixtures.noGnuStack().toString()).contains("GNU_STACK"));
  }

  @Test
  void x86IsaLevelNeeded() throws IOException, InterruptedException {
    assertEquals(3, properties(GateFixtures.isaV3()).x86IsaLevelNeeded()); // gcc -Wl,-z,x86-64-v3
    assertEquals(2, properties(GateFixtures.isaV2()).x86IsaLevelNeeded());
    assertTrue(Tools.check("readelf", "-nW", GateFixtures.isaV3().toString()).contains("x86 ISA needed: x86-64-v3"));
    // Debian's gcc records no property note by default.
    GnuProperties plain = properties(StandIns.transformerEngine());
    assertFalse(plain.present());
    assertEquals(0, plain.x86IsaLevelNeeded());
    assertEquals("x86-64-v3", GnuProperties.x86IsaLevelName(3));
    assertEquals("x86-64-baseline", GnuProperties.x86IsaLevelName(1));
  }

  @Test
  void systemLibrariesReadAsReadelfSaysTheirIsaLevel() throws Exception {
    // glibc on this machine is linked with -z x86-64-baseline (readelf: "x86 ISA needed: x86-64-baseline").
    Path libc = SystemLibraries.libc();
    String readelf = Tools.check("readelf", "-nW", libc.toString());
    GnuProperties p = properties(libc);
    if (readelf.contains("x86 ISA needed: x86-64-baseline")) {
      assertEquals(1, p.x86IsaLevelNeeded());
    }
    assertEquals(readelf.contains("x86 ISA needed"), p.x86IsaNeeded() != 0);
  }

  @Test
  void aarch64FeaturesFromATinyImage() throws IOException {
    // No aarch64 toolchain here: an image with the note as GNU ld writes it for -z force-bti -z pac-plt.
    byte[] image = new TinyElfWriter(ElfClass.ELF64, ElfData.LSB, 183).soname("libbti.so")
        .gnuProperty(GnuProperties.GNU_PROPERTY_AARCH64_FEATURE_1_AND, 3).build();
    GnuProperties p = GnuProperties.read(ByteSource.of(image, "bti"), ElfFile.read(ByteSource.of(image, "bti")));
    assertEquals(List.of("BTI", "PAC"), p.aarch64FeatureNames());
    assertEquals(0, p.x86IsaLevelNeeded(), "an aarch64 file has no x86 ISA level");
  }

  private static GnuProperties properties(Path lib) throws IOException {
    try (ByteSource source = ByteSource.open(lib)) {
      return GnuProperties.read(source, ElfFile.read(source));
    }
  }
}
