/**
 * te-runtime's FFM bindings: libc's few functions through one downcall shape ({@code Libc}), one table of functions
 * per native library ({@code NcclFunction}, {@code NcclEpFunction}, {@code TeFunction}, {@code LibraryVersions}),
 * the bound handle that checks a C status ({@code NativeCalls}), the symbols of an opened library, and the C values
 * of structs and enums. The lowest internal package: it names no host, search or load class.
 */
package dev.tewheel.runtime.internal.ffm;
