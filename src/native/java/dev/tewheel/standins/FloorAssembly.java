package dev.tewheel.standins;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The assembler text and version scripts of {@link FloorSpace}'s libraries: each floor's definitions written with
 * the directives that say them, the stubs linked against, and the referencing libraries.
 */
final class FloorAssembly {
  private FloorAssembly() {}

  /** Assembler text of one floor: each definition {@code tw_k}, written as far as directives can. */
  static String floor(FloorSpace.Floor floor) {
    StringBuilder head = new StringBuilder();
    StringBuilder text = new StringBuilder(".text\ntw_resolve:\n  leaq tw_impl(%rip), %rax\n  ret\ntw_impl:\n  ret\n");
    StringBuilder data = new StringBuilder(".data\n");
    StringBuilder tls = new StringBuilder();
    StringBuilder debug = new StringBuilder();
    for (int k = 0; k < floor.definitions().size(); k++) {
      FloorSpace.Definition d = floor.definitions().get(k);
      String name = "tw_" + k;
      boolean hidden = FloorSpace.hiddenVersion(d.version()) && d.section() != FloorSpace.Section.COMMON;
      String w = hidden ? name + "_v" : name;
      if (d.section() != FloorSpace.Section.COMMON) {
        head.append(d.binding() == FloorSpace.Binding.WEAK ? ".weak " : ".globl ").append(w).append('\n');
      }
      if (d.visibility() == FloorSpace.Visibility.PROTECTED && d.section() != FloorSpace.Section.UNDEF) {
        head.append(".protected ").append(w).append('\n');
      }
      String type = switch (d.type()) {
        case FUNC -> "@function";
        case OBJECT -> FloorSpace.uniqueDirective(d) && d.binding() == FloorSpace.Binding.GNU_UNIQUE
            ? "%gnu_unique_object" : "@object";
        case TLS -> "@tls_object";
        case IFUNC -> d.section() == FloorSpace.Section.UNDEF ? "@function" : "%gnu_indirect_function";
      };
      switch (d.section()) {
        case DEFINED -> {
          head.append(".type ").append(w).append(", ").append(type).append('\n');
          switch (d.type()) {
            case FUNC -> text.append(w).append(":\n  ret\n");
            case OBJECT -> data.append(".size ").append(w).append(", 8\n").append(w).append(":\n  .quad 1\n");
            // Every TLS definition at offset 0 of .tdata: glibc binds a TLS symbol of value 0.
            case TLS -> tls.append(".size ").append(w).append(", 8\n").append(w).append(":\n");
            case IFUNC -> head.append(".set ").append(w).append(", tw_resolve\n");
          }
        }
        case UNDEF -> {
          head.append(".type ").append(w).append(", ").append(type).append('\n');
          debug.append("  .quad ").append(w).append('\n'); // an entry in .dynsym without a dynamic relocation
        }
        case ABS -> head.append(".type ").append(w).append(", ").append(type).append('\n').append(".set ").append(w)
            .append(", 0\n");
        case COMMON -> head.append(d.type() == FloorSpace.Type.TLS ? ".tls_common " : ".comm ").append(w)
            .append(", 8, 8\n");
      }
      if (hidden) {
        head.append(".symver ").append(w).append(", ").append(name).append('@')
            .append(d.version() == FloorSpace.Version.HIDDEN_2 ? FloorSpace.V1 : FloorSpace.V2)
            .append(", remove\n");
      }
    }
    StringBuilder all = new StringBuilder(head).append(text).append(data);
    if (tls.length() > 0) {
      all.append(".section .tdata,\"awT\",@progbits\n").append(tls).append("  .quad 1\n");
    }
    if (debug.length() > 0) {
      all.append(".section .debug_info,\"\",@progbits\n").append(debug);
    }
    return all.append(".section .note.GNU-stack,\"\",@progbits\n").toString();
  }

  /** The version script of a floor: V1 (index 2) and V2 (index 3), or only V2 for a missing node. */
  static Optional<String> script(FloorSpace.Floor floor) {
    List<String> v1 = new ArrayList<>();
    List<String> v2 = new ArrayList<>();
    for (int k = 0; k < floor.definitions().size(); k++) {
      FloorSpace.Definition d = floor.definitions().get(k);
      boolean common = d.section() == FloorSpace.Section.COMMON;
      switch (d.version()) {
        case INDEX_2 -> v1.add("tw_" + k);
        case HIDDEN_2 -> {
          if (common) {
            v1.add("tw_" + k); // the hidden bit is edited in
          }
        }
        case INDEX_3 -> v2.add("tw_" + k);
        case HIDDEN_3 -> {
          if (common) {
            v2.add("tw_" + k);
          }
        }
        default -> { }
      }
    }
    return switch (floor.layout()) {
      case NONE -> Optional.empty();
      case FULL -> Optional.of(FloorSpace.V1 + " {" + names(v1) + " };\n" + FloorSpace.V2 + " {" + names(v2) + " } "
          + FloorSpace.V1 + ";\n");
      case MISSING -> Optional.of(FloorSpace.V2 + " {" + names(v2) + " };\n");
    };
  }

  private static String names(List<String> names) {
    return names.isEmpty() ? "" : " global: " + String.join("; ", names) + ";";
  }

  /** {@code count} plain objects {@code prefix0…}: the stubs linked against, the fallback, the empty fallback. */
  static String definitions(String prefix, int count) {
    StringBuilder s = new StringBuilder(".data\n");
    for (int k = 0; k < count; k++) {
      String name = prefix + k;
      s.append(".globl ").append(name).append("\n.type ").append(name).append(", @object\n.size ").append(name)
          .append(", 8\n").append(name).append(":\n  .quad 1\n");
    }
    return s.append(".section .note.GNU-stack,\"\",@progbits\n").toString();
  }

  /**
   * A library whose one word holds the address of {@code name}: a plain R_X86_64_64 relocation, whose lookup glibc
   * makes as any other's (the relocation class matters only for an undefined entry with a value, which a shared
   * library never has).
   */
  static String reference(String name, boolean weak) {
    String word = FloorSpace.WORD;
    return (weak ? ".weak " + name + "\n" : "") + ".data\n.globl " + word + "\n.type " + word + ", @object\n.size "
        + word + ", 8\n" + word + ":\n  .quad " + name + "\n.section .note.GNU-stack,\"\",@progbits\n";
  }
}
