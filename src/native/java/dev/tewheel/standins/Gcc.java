package dev.tewheel.standins;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Builds the fixtures tests make at run time with the real compiler, and the one edit gcc cannot make. A missing
 * gcc or a failed build is an error with the command and its output; nothing here skips a test.
 */
public final class Gcc {
  private static final long DT_SONAME = 14;
  private static final long DT_RUNPATH = 29;
  private static final int PT_DYNAMIC = 2;

  private Gcc() {}

  /** Runs {@code gcc args…}; throws with the command line and gcc's output unless it exits 0 within a minute. */
  public static void run(String... args) throws IOException, InterruptedException {
    run(List.of(args));
  }

  /** {@link #run(String...)} with the arguments as a list. */
  public static void run(List<String> args) throws IOException, InterruptedException {
    run(null, args);
  }

  /** {@link #run(List)} in {@code directory} (null: the current one), where gcc writes what has no {@code -o}. */
  public static void run(Path directory, List<String> args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("gcc"));
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    if (directory != null) {
      builder.directory(directory.toFile());
    }
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new AssertionError("gcc could not be started (" + e.getMessage() + "); these fixtures need it (Debian:"
          + " apt-get install gcc)", e);
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("gcc did not finish within 60 s: " + String.join(" ", command));
    }
    if (process.exitValue() != 0) {
      throw new AssertionError("gcc exited " + process.exitValue() + ": " + String.join(" ", command) + "\n"
          + output);
    }
  }

  /**
   * Builds one of glibc's oracle programs of resources/loader ({@code dlopen_probe}, {@code noload_probe}) into
   * {@code folder}. With {@code asTheJvm} it carries the running JVM launcher's search path (DT_RPATH
   * {@code $ORIGIN:$ORIGIN/../lib}, as the JDK's {@code java} has), so that glibc searches for a name as it does in the
   * JVM whose answers the probe is held beside.
   */
  public static Path probe(String name, Path folder, boolean asTheJvm) throws IOException, InterruptedException {
    Path source = folder.resolve(name + ".c");
    try (InputStream in = Gcc.class.getResourceAsStream("/loader/" + name + ".c")) {
      if (in == null) {
        throw new AssertionError("no /loader/" + name + ".c among te-wheel's test resources");
      }
      Files.write(source, in.readAllBytes());
    }
    Path probe = folder.resolve(name);
    List<String> args = new ArrayList<>(List.of("-o", probe.toString(), source.toString(), "-ldl"));
    if (asTheJvm) {
      Path javaHome = Path.of(System.getProperty("java.home")).toRealPath();
      args.addAll(List.of("-Wl,--disable-new-dtags", "-Wl,-rpath," + javaHome.resolve("bin") + ":"
          + javaHome.resolve("lib")));
    }
    run(args);
    return probe;
  }

  /**
   * Turns the DT_SONAME entry of a 64-bit little-endian shared object into a DT_RUNPATH naming the same string. The
   * linker writes DT_RPATH or DT_RUNPATH, never both; this makes a library that carries both, as glibc must judge.
   */
  public static void retagSonameAsRunpath(Path library) throws IOException {
    try (FileChannel file = FileChannel.open(library, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer header = read(file, 0, 64);
      long programHeaders = header.getLong(32);
      int entrySize = Short.toUnsignedInt(header.getShort(54));
      int count = Short.toUnsignedInt(header.getShort(56));
      for (int i = 0; i < count; i++) {
        ByteBuffer program = read(file, programHeaders + (long) i * entrySize, 56);
        if (program.getInt(0) != PT_DYNAMIC) {
          continue;
        }
        long offset = program.getLong(8);
        ByteBuffer entries = read(file, offset, (int) program.getLong(32));
        for (int at = 0; at + 16 <= entries.capacity(); at += 16) {
          if (entries.getLong(at) == DT_SONAME) {
            file.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, DT_RUNPATH), offset + at);
            return;
          }
        }
      }
    }
    throw new AssertionError("no DT_SONAME in the dynamic section of " + library);
  }

  private static ByteBuffer read(FileChannel file, long position, int size) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    while (buffer.hasRemaining() && file.read(buffer, position + buffer.position()) > 0) {
      // read until full or end of file
    }
    return buffer;
  }
}
