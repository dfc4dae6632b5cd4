package dev.tewheel.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * What a command runs against: its output streams, its environment (GITHUB_ACTIONS, for annotations) and the folder
 * relative paths are taken from; a test gives its own.
 */
record Io(PrintStream out, PrintStream err, Function<String, String> environment, Path workingFolder) {}
