package dev.tewheel.elf.cli;

import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ElfFormatException;
import dev.tewheel.json.Printable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code te-wheel inspect [--json] FILE...} (also {@code java -cp ... dev.tewheel.elf.cli.Inspect}): prints what
 * each ELF file says about itself.
 *
 * <p>Exit status: 0 when every file was read, 1 when any could not be, 2 for a usage error. The text form prints
 * every line through the one escaping rule ({@link Printable}); the JSON form escapes every non-ASCII character.
 */
public final class Inspect {
  /** The program's name in messages and the usage when none is given. */
  static final String PROGRAM = "te-wheel-elf";

  static final String USAGE = """
      usage: %s [--json] FILE...
      Prints what each ELF file says about itself, read without running it: class, byte order, type, machine,
      SONAME, NEEDED, RPATH, RUNPATH, bind-now, RELRO, dynamic symbols with versions and version needs.
        --json      one JSON array with one object per file (schema: docs/elf.md)
        -h, --help  this text
      Exit status: 0 all files read, 1 some file could not be read, 2 usage error.
      """;

  private Inspect() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command, writing to {@code out} and {@code err}; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return run(PROGRAM, args, out, err);
  }

  /**
   * Runs the command under another name (te-wheel's {@code te-wheel inspect}), which its usage and messages show.
   *
   * @return the exit status: 0 all files read, 1 some file could not be read, 2 usage error
   */
  public static int run(String program, String[] args, PrintStream out, PrintStream err) {
    String usage = USAGE.formatted(program);
    boolean json = false;
    boolean options = true;
    List<String> files = new ArrayList<>();
    for (String arg : args) {
      if (options && arg.equals("--")) {
        options = false;
      } else if (options && arg.equals("--json")) {
        json = true;
      } else if (options && (arg.equals("-h") || arg.equals("--help"))) {
        out.print(usage);
        return 0;
      } else if (options && arg.startsWith("-") && arg.length() > 1) {
        err.print(Printable.line(program + ": unknown option " + arg) + "\n" + usage);
        return 2;
      } else {
        files.add(arg);
      }
    }
    if (files.isEmpty()) {
      err.print(program + ": no files given\n" + usage);
      return 2;
    }
    boolean failed = false;
    JsonReport jsonReport = new JsonReport();
    boolean first = true;
    for (String file : files) {
      try {
        ElfFile elf = ElfFile.read(Path.of(file));
        if (json) {
          jsonReport.add(file, elf);
        } else {
          out.print(TextReport.of(file, elf, first));
          first = false;
        }
      } catch (IOException | RuntimeException e) {
        // A RuntimeException here is a bug in the reader, but one bad file must not hide the others' results.
        failed = true;
        String message = describe(file, e);
        if (json) {
          jsonReport.addError(file, message);
        } else {
          out.flush();
          err.print(Printable.line(program + ": " + message) + "\n");
        }
      }
    }
    if (json) {
      out.print(jsonReport.finish());
    }
    out.flush();
    return failed ? 1 : 0;
  }

  private static String describe(String file, Exception e) {
    if (e instanceof ElfFormatException) {
      return e.getMessage();
    } else if (e instanceof NoSuchFileException) {
      return file + ": no such file";
    } else if (e instanceof AccessDeniedException) {
      return file + ": permission denied";
    } else if (e instanceof InvalidPathException) {
      return file + ": not a valid path (" + e.getMessage() + ")";
    } else if (e instanceof IOException) {
      String m = e.getMessage();
      return m != null && m.startsWith(file) ? m : file + ": " + m;
    }
    return file + ": internal error: " + e;
  }
}
