package dev.tewheel.cli;

import dev.tewheel.elf.cli.Inspect;
import java.util.List;

/**
 * {@code te-wheel inspect [--json] FILE...}: the ELF reader's inspect command under te-wheel's name. Its "some file
 * could not be read" (1) is te-wheel's I/O error (2); it has no verdict to fail.
 */
final class InspectCommand extends Command {
  /** Inspect's status when a file could not be read. */
  private static final int UNREADABLE = 1;

  InspectCommand() {
    super(new Usage("inspect", "[--json] FILE...",
        "what each ELF file says about itself: SONAME, NEEDED, RUNPATH, symbols, versions"));
  }

  @Override
  int run(List<String> args, Io io) {
    int status = Inspect.run("te-wheel inspect", args.toArray(String[]::new), io.out(), io.err());
    return status == UNREADABLE ? Exit.ERROR : status;
  }
}
