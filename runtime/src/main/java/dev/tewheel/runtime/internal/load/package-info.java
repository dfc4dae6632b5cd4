/**
 * The one load sequence ({@code LoadSequence}): the search made once, the library opened, checked and loaded through
 * its descriptor ({@code LoadCheck}), and what a load hands the public API ({@code LoadedLibrary}). The top internal
 * package: it may import every other one.
 */
package dev.tewheel.runtime.internal.load;
