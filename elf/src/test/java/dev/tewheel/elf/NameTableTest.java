package dev.tewheel.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class NameTableTest {
  @Test
  void declaredConstantsHaveTheSpecificationsNumbers() {
    // The numbers of the ELF specification and the GNU extensions, written here apart from the classes.
    assertEquals(List.of(62, 183, 3, 40, 21, 22, 243, 0x9026), List.of(ElfMachine.X86_64.value(),
        ElfMachine.AARCH64.value(), ElfMachine.I386.value(), ElfMachine.ARM.value(), ElfMachine.PPC64.value(),
        ElfMachine.S390.value(), ElfMachine.RISCV.value(), ElfMachine.ALPHA.value()));
    assertEquals(List.of(0, 3), List.of(OsAbi.SYSV.value(), OsAbi.GNU.value()));
    assertEquals(List.of(1, 2, 3, 4, 0x6474e551, 0x6474e552, 0x6474e553), List.of(SegmentType.LOAD.value(),
        SegmentType.DYNAMIC.value(), SegmentType.INTERP.value(), SegmentType.NOTE.value(),
        SegmentType.GNU_STACK.value(), SegmentType.GNU_RELRO.value(), SegmentType.GNU_PROPERTY.value()));
    assertEquals(List.of(0, 1, 2, 5, 6, 10), List.of(SymbolType.NOTYPE.value(), SymbolType.OBJECT.value(),
        SymbolType.FUNC.value(), SymbolType.COMMON.value(), SymbolType.TLS.value(), SymbolType.GNU_IFUNC.value()));
    assertEquals(List.of(2, 3), List.of(ElfType.EXEC.value(), ElfType.DYN.value()));
    assertEquals(List.of(0, 1, 2, 10), List.of(SymbolBinding.LOCAL.value(), SymbolBinding.GLOBAL.value(),
        SymbolBinding.WEAK.value(), SymbolBinding.GNU_UNIQUE.value()));
  }

  @Test
  void printsTheTablesNameElseTheNumber() {
    assertEquals("x86_64", new ElfMachine(62).name());
    assertEquals("loongarch", new ElfMachine(258).name());
    assertEquals("4660", new ElfMachine(0x1234).name());
    assertEquals("GNU_RELRO", new SegmentType(0x6474e552).name());
    assertEquals("0x60000000", new SegmentType(0x60000000).name());
  }

  /** A constant writes its number beside the table's: each must print as it is called (ElfMachine: lower-case). */
  @Test
  void everyDeclaredConstantPrintsItsOwnName() throws IllegalAccessException {
    int checked = 0;
    for (Class<?> kind : List.of(ElfMachine.class, OsAbi.class, SegmentType.class, SymbolType.class, ElfType.class,
        SymbolBinding.class)) {
      for (Field field : kind.getFields()) {
        if (Modifier.isStatic(field.getModifiers()) && field.getType() == kind) {
          String expected = kind == ElfMachine.class ? field.getName().toLowerCase(Locale.ROOT) : field.getName();
          assertEquals(expected, ((NumberedConstant) field.get(null)).name(),
              kind.getSimpleName() + "." + field.getName());
          checked++;
        }
      }
    }
    assertEquals(29, checked);
  }

  @Test
  void aTableWithANumberTwiceOrABrokenPairIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> NameTable.of(1, "A", 1, "B"));
    assertThrows(IllegalArgumentException.class, () -> NameTable.of(1, "A", 2));
    assertThrows(IllegalArgumentException.class, () -> NameTable.of("A", 1));
    assertNull(NameTable.of(1, "A").name(2));
  }
}
