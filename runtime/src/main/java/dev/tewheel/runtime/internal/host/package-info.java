/**
 * The live host, through the bindings: ld.so's own answers and the loader model's {@code Host} for this process
 * ({@code LinkerHost}, {@code LiveLoader}), this process's maps, a library opened once by descriptor
 * ({@code PinnedLibrary}), the folders te-runtime trusts ({@code TrustedFolder}; those it skips: loader's
 * {@code UnnamedFolders}).
 * Imports only {@code internal.ffm}.
 */
package dev.tewheel.runtime.internal.host;
