package dev.tewheel.runtime.internal.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.standins.Gcc;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * "Is this name loaded?" ({@link LinkerHost#loadedFile}) and the loader model's "would dlopen succeed, fail or wait?"
 * against glibc itself, over a generated space: every way of having loaded a library (nothing; by path; by a
 * symbolic link's path; by SONAME or by another name, searched; as a dependency) times every search path that puts a
 * special file where glibc looks (a FIFO before, after or instead of the library, in a hwcaps subfolder, in the
 * current directory through an empty entry; a device; a socket or a link loop, whose failed open ends its search
 * list; a dangling link, which does not) times every name asked (the SONAME, the link's name, a dependent's SONAME,
 * a name never loaded). The oracle is noload_probe.c, which asks each question in a child that is stopped after two
 * seconds (a dlopen that ends takes milliseconds): glibc's RTLD_NOLOAD search waits at a FIFO for a writer, for
 * ever. te-runtime must answer every question glibc answers the same, never wait, and say "waits" exactly where glibc
 * does. Every fixture is a library gcc links here, every special file a real one.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class NoLoadDifferentialTest {
  @TempDir static Path temp;
  private static Path probe;
  private static Path libs;

  private static final List<String> ASKED = List.of("libgen.so.1", "libgen.so", "libuse.so.1", "libother.so.1");

  /**
   * A search path: its LD_LIBRARY_PATH (with {@code %LIBS} for the folder of the real libraries) and current
   * directory; {@code waitsFirst} when a special file that waits comes before the libraries, so that loading by a
   * searched name would itself wait (no such case is made).
   */
  private record Shape(String name, String ldLibraryPath, Path cwd, boolean waitsFirst) {}

  /** What is loaded before the questions: the dlopen arguments, and whether a name is searched (a dependency's). */
  private record Loads(String name, List<String> args, boolean searched) {}

  @BeforeAll
  static void build() throws Exception {
    probe = Gcc.probe("noload_probe", temp, true);
    libs = Files.createDirectories(temp.resolve("libs"));
    Path gen = Files.writeString(temp.resolve("gen.c"), "int gen_fn(void) { return 1; }\n");
    Gcc.run(List.of("-shared", "-fPIC", "-Wl,-soname,libgen.so.1", "-o", libs.resolve("libgen.so.1").toString(),
        gen.toString()));
    Files.createSymbolicLink(libs.resolve("libgen.so"), Path.of("libgen.so.1"));
    Path use = Files.writeString(temp.resolve("use.c"),
        "extern int gen_fn(void);\nint use_fn(void) { return gen_fn(); }\n");
    Gcc.run(List.of("-shared", "-fPIC", "-Wl,-soname,libuse.so.1", "-o", libs.resolve("libuse.so.1").toString(),
        use.toString(), "-L" + libs, "-l:libgen.so.1"));
  }

  /** A folder holding, under every asked name, the special file {@code make} makes. */
  private interface Maker {
    void make(Path file) throws Exception;
  }

  private static Path folderOf(String name, Maker make) throws Exception {
    Path folder = Files.createDirectories(temp.resolve(name));
    for (String asked : ASKED) {
      make.make(folder.resolve(asked));
    }
    return folder;
  }

  private static void fifo(Path file) throws Exception {
    Process mkfifo = new ProcessBuilder("mkfifo", file.toString()).inheritIO().start();
    assertTrue(mkfifo.waitFor(10, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo " + file);
  }

  private static void socket(Path file) throws Exception {
    try (ServerSocketChannel channel = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      channel.bind(UnixDomainSocketAddress.of(file));
    }
  }

  private static List<Shape> shapes() throws Exception {
    Path fifos = folderOf("fifos", NoLoadDifferentialTest::fifo);
    Path devices = folderOf("devices", f -> Files.createSymbolicLink(f, Path.of("/dev/null")));
    Path sockets = folderOf("sockets", NoLoadDifferentialTest::socket);
    Path loops = folderOf("loops", f -> Files.createSymbolicLink(f, f.getFileName()));
    Path dangling = folderOf("dangling", f -> Files.createSymbolicLink(f, Path.of("nothing-there")));
    Path cwd = folderOf("cwd", NoLoadDifferentialTest::fifo);
    List<Shape> shapes = new ArrayList<>(List.of(
        new Shape("libraries only", "%LIBS", temp, false),
        new Shape("a FIFO first", fifos + ":%LIBS", temp, true),
        new Shape("a FIFO after", "%LIBS:" + fifos, temp, false),
        new Shape("FIFOs only", fifos.toString(), temp, true),
        new Shape("a FIFO in the current directory, an empty entry", ":%LIBS", cwd, true),
        new Shape("/dev/null first", devices + ":%LIBS", temp, false),
        new Shape("a socket first, in the same list", sockets + ":%LIBS", temp, false),
        new Shape("a link loop first, in the same list", loops + ":%LIBS", temp, false),
        new Shape("a dangling link first", dangling + ":%LIBS", temp, false)));
    // A FIFO in the first hwcaps subfolder this host's glibc tries, before the folder itself.
    List<String> subfolders = LinkerHost.host().subfolders();
    if (subfolders.size() > 1) {
      Path hwcaps = temp.resolve("hwcaps");
      Files.createDirectories(hwcaps.resolve(subfolders.get(0)));
      for (String asked : ASKED) {
        fifo(hwcaps.resolve(subfolders.get(0) + asked));
      }
      shapes.add(new Shape("a FIFO in " + subfolders.get(0), hwcaps + ":%LIBS", temp, true));
      // open_path judges a folder by its last try (the folder itself): a socket in a subfolder ends nothing.
      Path socketsBelow = temp.resolve("sockets-below");
      Files.createDirectories(socketsBelow.resolve(subfolders.get(0)));
      for (String asked : ASKED) {
        socket(socketsBelow.resolve(subfolders.get(0) + asked));
      }
      shapes.add(new Shape("a socket in " + subfolders.get(0), socketsBelow + ":%LIBS", temp, false));
    }
    return shapes;
  }

  private static List<Loads> loads() {
    return List.of(
        new Loads("nothing", List.of(), false),
        new Loads("by path", List.of(libs.resolve("libgen.so.1").toString()), false),
        new Loads("by a link's path", List.of(libs.resolve("libgen.so").toString()), false),
        new Loads("by SONAME", List.of("libgen.so.1"), true),
        new Loads("by the link's name", List.of("libgen.so"), true),
        new Loads("as a dependency", List.of(libs.resolve("libuse.so.1").toString()), true));
  }

  @Test
  void everyQuestionGlibcAnswersIsAnsweredAlikeAndNoneWaits() throws Exception {
    int questions = 0;
    int waits = 0;
    for (Shape shape : shapes()) {
      for (Loads loads : loads()) {
        if (loads.searched() && shape.waitsFirst()) {
          continue; // the load itself would wait: no process could ask anything after it
        }
        List<String> args = new ArrayList<>(loads.args());
        args.add("--");
        args.addAll(ASKED);
        String ldLibraryPath = shape.ldLibraryPath().replace("%LIBS", libs.toString());
        List<String> probeCommand = new ArrayList<>(List.of(probe.toString()));
        probeCommand.addAll(args);
        List<String> glibc = run(probeCommand, shape.cwd(), ldLibraryPath);
        List<String> javaCommand = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
            NoLoadAnswers.class.getName()));
        javaCommand.addAll(args);
        List<String> teRuntime = run(javaCommand, shape.cwd(), ldLibraryPath);
        assertEquals(glibc, teRuntime, shape.name() + ", loaded " + loads.name() + ", LD_LIBRARY_PATH="
            + ldLibraryPath);
        questions += ASKED.size() * 2;
        waits += (int) glibc.stream().filter(line -> line.endsWith(" waits")).count();
      }
    }
    // The space holds both kinds: questions glibc answers, and questions at which it waits.
    assertTrue(questions >= 200, questions + " questions");
    assertTrue(waits >= 20, waits + " questions at which glibc waits");
  }

  @Test
  void theNcclGateRefusesAFifoOnDlopensSearchPathInsteadOfWaitingThere() throws Exception {
    Path folder = Files.createDirectories(temp.resolve("nccl-fifo"));
    fifo(folder.resolve("libnccl.so.2"));
    List<String> javaCommand = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
        NoLoadAnswers.class.getName(), "--nccl-gate");
    String detail = String.join("\n", run(javaCommand, temp, folder.toString()));
    assertTrue(detail.contains("libnccl.so.2 does not load: the dynamic linker's search meets "
        + folder.resolve("libnccl.so.2") + ", which is no library but a FIFO or a device, where dlopen would wait for"
        + " ever"), detail);
  }

  /** The process's lines; it must end by itself within a minute (te-runtime's side must never wait). */
  private static List<String> run(List<String> command, Path cwd, String ldLibraryPath) throws Exception {
    Path output = Files.createTempFile(temp, "out", ".txt");
    ProcessBuilder builder = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true)
        .redirectOutput(output.toFile());
    builder.environment().keySet().removeIf(n -> n.startsWith("LD_") || n.equals("GLIBC_TUNABLES"));
    builder.environment().put("LD_LIBRARY_PATH", ldLibraryPath);
    Process process = builder.start();
    boolean ended = process.waitFor(60, TimeUnit.SECONDS);
    if (!ended) {
      process.destroyForcibly().waitFor();
    }
    String out = Files.readString(output).strip();
    assertTrue(ended, command + " did not end within a minute (it waits); it printed:\n" + out);
    assertEquals(0, process.exitValue(), command + "\n" + out);
    return out.lines().toList();
  }
}
