package dev.tewheel.elf;

import java.util.Optional;

/**
 * The version attached to a dynamic symbol through DT_VERSYM.
 *
 * @param name the version name, e.g. "GLIBC_2.34"
 * @param hidden the VERSYM_HIDDEN bit: a defined symbol of a non-default version ({@code name@VER} rather than
 *     {@code name@@VER}); the linker binds new references only to the default one
 * @param neededFrom for a version of DT_VERNEED, the file that must provide it (e.g. "libc.so.6"); empty for a
 *     version this object defines (DT_VERDEF)
 */
public record SymbolVersion(String name, boolean hidden, Optional<String> neededFrom) {}
