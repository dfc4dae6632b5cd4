package dev.tewheel.pip;

import dev.tewheel.elf.ElfFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The Java runtime the wheel carries: the te-wheel jar made a module ({@value #MODULE}, main class {@value #MAIN})
 * and linked by jlink with only the JDK modules it needs into one image, its libraries able to find libjvm.so.
 *
 * <p>The command's classes sit inside the image (lib/modules), not on a class path: the JVM checks a class-path
 * jar against a class-data archive by its modification time, which pip does not keep (an installed file is as old
 * as the install), while it checks the image's own classes by the image's size only, so the archive made here is
 * still used wherever pip puts the package.
 */
final class RuntimeImage {
  static final String MODULE = "dev.tewheel.cli";
  static final String MAIN = "dev.tewheel.cli.TeWheel";

  private RuntimeImage() {}

  /** Links the image into {@code image} (which must not exist) from {@code cliJar}; returns the JDK modules in it. */
  static Set<String> link(Path cliJar, Path work, Path image) throws IOException {
    String feature = String.valueOf(Runtime.version().feature());
    String listing = Tools.jdk("jdeps", List.of("-verbose:class", "--ignore-missing-deps", "--multi-release", feature,
        cliJar.toString()));
    Set<String> modules = ModulesNeeded.of(listing, cliJar.getFileName().toString());
    Path moduleJar = moduleJar(cliJar, modules, work);
    Tools.jdk("jlink", List.of("--module-path", moduleJar.toString(),
        "--add-modules", MODULE + "," + String.join(",", modules),
        // te-wheel runtime calls native code (java.lang.foreign) from the named module.
        "--add-options=--enable-native-access=" + MODULE,
        "--strip-debug", "--no-header-files", "--no-man-pages", "--output", image.toString()));
    findLibjvmByRunpath(image);
    return modules;
  }

  /** A copy of the te-wheel jar with a module descriptor: the module requires {@code modules}, its main class. */
  private static Path moduleJar(Path cliJar, Set<String> modules, Path work) throws IOException {
    Path source = Files.createDirectories(work.resolve("module-info"));
    StringBuilder text = new StringBuilder("module " + MODULE + " {\n");
    for (String module : modules) {
      if (!module.equals("java.base")) {
        text.append("  requires ").append(module).append(";\n");
      }
    }
    Files.writeString(source.resolve("module-info.java"), text.append("}\n"));
    Path classes = work.resolve("module-info-classes");
    Tools.jdk("javac", List.of("--release", "17", "-d", classes.toString(), "--patch-module", MODULE + "=" + cliJar,
        source.resolve("module-info.java").toString()));
    Path jar = work.resolve(MODULE + ".jar");
    Files.copy(cliJar, jar, StandardCopyOption.REPLACE_EXISTING);
    Tools.jdk("jar", List.of("--update", "--file", jar.toString(), "--main-class", MAIN, "-C", classes.toString(),
        "module-info.class"));
    return jar;
  }

  /**
   * The JDK's libraries in lib/ NEED libjvm.so, which lives in lib/server/, and rely on the java launcher having
   * loaded it first; dlopen of one of them alone fails, and te-wheel's gate (DEPS-RESOLVE) says so. Each gets
   * {@code $ORIGIN/server} on its RUNPATH, as that finding's fix says, so the image passes the gate it ships.
   */
  private static void findLibjvmByRunpath(Path image) throws IOException {
    Path lib = image.resolve("lib");
    if (!Files.isRegularFile(lib.resolve("server/libjvm.so"))) {
      throw new IOException(image + " has no lib/server/libjvm.so: expected a HotSpot server VM image from jlink");
    }
    List<Path> needing = new ArrayList<>();
    try (Stream<Path> files = Files.list(lib)) {
      for (Path file : files.filter(p -> p.getFileName().toString().endsWith(".so")).sorted().toList()) {
        if (ElfFile.read(file).needed().contains("libjvm.so")) {
          needing.add(file);
        }
      }
    }
    for (Path file : needing) {
      Tools.succeed(List.of("patchelf", "--add-rpath", "$ORIGIN/server", file.toString()), image, Map.of());
    }
  }
}
