package dev.tewheel.runtime;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Whether every symbol a library imports would bind if it were opened now, predicted from the ELF files of the
 * libraries that would actually bind (already mapped, preloaded by te-runtime, or found by the loader's search),
 * without opening it; by the same rule as the SYMBOL-FLOOR release check (elf's {@code SymbolScope}).
 *
 * @param library its SONAME, else its file name
 * @param file the file that would be opened
 * @param bindNow whether every symbol binds at load (the library's BIND_NOW flag, or te-runtime opens it with
 *     RTLD_NOW): then an unresolved symbol stops the load; otherwise it loads, and the first call of an unresolved
 *     function ends the process
 * @param unresolved every strong import no library of its lookup scope defines, as glibc names it ({@code name} or
 *     {@code name@VERSION}), in symbol-table order
 * @param unchecked libraries of the scope that could not be found or read: an import only they might define is not
 *     judged (dlopen says more about a library it cannot find)
 * @param detail what is not defined by which file, and the fix; empty when nothing is unresolved
 */
public record LoadPrediction(String library, Path file, boolean bindNow, List<String> unresolved,
    List<String> unchecked, String detail) {
  public LoadPrediction {
    Objects.requireNonNull(library, "library");
    Objects.requireNonNull(file, "file");
    unresolved = List.copyOf(unresolved);
    unchecked = List.copyOf(unchecked);
    Objects.requireNonNull(detail, "detail");
  }

  /** Whether dlopen would succeed as far as symbols go: nothing unresolved, or lazily bound. */
  public boolean loads() {
    return unresolved.isEmpty() || !bindNow;
  }
}
