"""Runs the te-wheel command on the Java runtime this package carries: no JDK, JAVA_HOME or PATH entry needed."""
import os
import sys

JAVA_HOME = os.path.join(os.path.dirname(os.path.abspath(__file__)), "java")
MODULE = "dev.tewheel.cli"


def command(args):
    """The java command line that runs ``te-wheel args``: the bundled java, its class-data archive when present."""
    options = []
    aot_cache = os.path.join(JAVA_HOME, "lib", "te-wheel.aot")
    cds_archive = os.path.join(JAVA_HOME, "lib", "te-wheel.jsa")
    if os.path.isfile(aot_cache):
        options.append("-XX:AOTCache=" + aot_cache)
    elif os.path.isfile(cds_archive):
        options.append("-XX:SharedArchiveFile=" + cds_archive)
    # The JVM's own messages (an archive it could not map) go to standard error, never into a report on stdout.
    options += ["-Xlog:disable", "-Xlog:all=warning:stderr"]
    return [os.path.join(JAVA_HOME, "bin", "java")] + options + ["-m", MODULE] + list(args)


def main():
    argv = command(sys.argv[1:])
    os.execv(argv[0], argv)


if __name__ == "__main__":
    main()
