package dev.tewheel.elf;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * This reader against binutils' readelf over every shared object of the machine's library folders (where
 * {@code ldconfig -p} finds the C library of the JVM's architecture) and of the JDK
 * running the test: SONAME, NEEDED, RPATH, RUNPATH, bind-now, RELRO, PT_INTERP, defined and undefined symbol names
 * (plain and with readelf's version suffix), version needs and version definitions must be equal, and
 * {@link ElfFile#readWithoutSymbols} must agree with {@link ElfFile#read} on everything but the symbols. All
 * mismatches are collected and reported at once, each with its file.
 */
class ReadelfDifferentialTest {
  private static final Pattern SHARED_OBJECT_NAME = Pattern.compile(".*\\.so(\\..*)?");

  @Test
  void agreesWithReadelfOnEverySystemAndJdkLibrary() throws Exception {
    List<Path> folders = SystemLibraries.folders();
    List<Path> system = new ArrayList<>();
    for (Path folder : folders) {
      system.addAll(sharedObjects(folder));
    }
    Path jdk = Path.of(System.getProperty("java.home"), "lib");
    List<Path> files = new ArrayList<>(system);
    files.addAll(sharedObjects(jdk));
    assertTrue(files.size() >= 50, "expected many shared objects to compare, found " + files.size());

    // readelf runs in its own process, so more threads than cores keep both cores busy.
    ExecutorService pool = Executors.newFixedThreadPool(2 * Runtime.getRuntime().availableProcessors());
    List<Future<String>> results = new ArrayList<>();
    try {
      for (Path file : files) {
        results.add(pool.submit(() -> compare(file)));
      }
      List<String> mismatches = new ArrayList<>();
      for (Future<String> result : results) {
        String mismatch = result.get();
        if (!mismatch.isEmpty()) {
          mismatches.add(mismatch);
        }
      }
      if (!mismatches.isEmpty()) {
        fail(mismatches.size() + " of " + files.size() + " files differ from readelf:\n"
            + String.join("", mismatches));
      }
      System.out.println("ReadelfDifferentialTest: " + files.size() + " shared objects agree with readelf ("
          + system.size() + " under " + folders + ", " + (files.size() - system.size()) + " under " + jdk
          + ")");
    } finally {
      pool.shutdownNow();
    }
  }

  private static String compare(Path file) throws IOException, InterruptedException {
    Tools.Result readelf = Tools.run(List.of("readelf", "-dlW", "--dyn-syms", "-V", file.toString()));
    if (readelf.exitCode() != 0) {
      // A file readelf rejects as corrupt must be rejected here too, with the typed exception.
      try {
        ElfFile.read(file);
        return file + ": readelf fails (" + readelf.stderr().strip() + "), this reader does not\n";
      } catch (ElfFormatException expected) {
        return "";
      }
    }
    Facts expected = Readelf.parse(readelf.stdout());
    ElfFile full;
    ElfFile light;
    try {
      full = ElfFile.read(file);
      light = ElfFile.readWithoutSymbols(file);
    } catch (IOException | RuntimeException e) {
      return file + ": readelf reads it, this reader fails: " + e + "\n";
    }
    String differences = Facts.of(full).differences(expected, "reader", "readelf")
        + Facts.differencesWithoutSymbols(light, full);
    return differences.isEmpty() ? "" : file + ":\n" + differences;
  }

  /** Regular files (not links) named *.so or *.so.* that start with the ELF magic. */
  static List<Path> sharedObjects(Path root) throws IOException {
    if (!Files.isDirectory(root)) {
      fail(root + " is not a folder: the differential test reads the shared objects there");
    }
    try (Stream<Path> walk = Files.walk(root)) {
      List<Path> result = new ArrayList<>();
      for (Path p : (Iterable<Path>) walk::iterator) {
        if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)
            && SHARED_OBJECT_NAME.matcher(p.getFileName().toString()).matches() && startsWithElfMagic(p)) {
          result.add(p);
        }
      }
      result.sort(null);
      return result;
    }
  }

  private static boolean startsWithElfMagic(Path p) throws IOException {
    try (InputStream in = Files.newInputStream(p)) {
      return Arrays.equals(in.readNBytes(4), new byte[] {0x7f, 'E', 'L', 'F'});
    } catch (java.nio.file.AccessDeniedException e) {
      return false;
    }
  }
}
