package dev.tewheel.runtime.report;

import java.nio.file.Path;
import java.util.List;

/**
 * Whether every symbol a library imports would bind if it were opened now, predicted from the ELF files of the
 * libraries that would actually bind (already mapped, preloaded by te-runtime, or found by the loader's search),
 * without opening it; by the same rule as the SYMBOL-FLOOR release check (elf's {@code SymbolScope}). te-runtime
 * makes it; an application reads it.
 *
 * @param library its SONAME, else its file name.
 * @param file the file that would be opened.
 * @param bindNow whether every symbol binds at load (the library's BIND_NOW flag, or te-runtime opens it with
 *     RTLD_NOW): then an unresolved symbol stops the load; otherwise it loads, and the first call of an unresolved
 *     function ends the process.
 * @param unresolved every strong import no library of its lookup scope defines, as glibc names it ({@code name} or
 *     {@code name@VERSION}), in symbol-table order.
 * @param missingVersions versions the library needs (DT_VERNEED) that the library its scope binds for them does not
 *     define, as {@code VERSION (FILE)}: glibc refuses the load before any symbol binds ({@code version `V' not
 *     found}), lazily bound or not.
 * @param unchecked libraries of the scope that could not be found or read: an import only they might define is not
 *     judged (dlopen says more about a library it cannot find).
 * @param detail what is not defined by which file, and the fix; empty when nothing is missing or unresolved.
 */
public record LoadPrediction(String library, Path file, boolean bindNow, List<String> unresolved,
    List<String> missingVersions, List<String> unchecked, String detail) {
  public LoadPrediction {
    unresolved = List.copyOf(unresolved);
    missingVersions = List.copyOf(missingVersions);
    unchecked = List.copyOf(unchecked);
  }

  /** Whether dlopen would succeed as far as versions and symbols go: no version missing, and nothing unresolved or lazily bound. */
  public boolean loads() {
    return missingVersions().isEmpty() && (unresolved().isEmpty() || !bindNow());
  }
}
