package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.json.Json;
import dev.tewheel.loader.Host;
import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.runtime.cli.Main;
import java.io.File;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Without native access te-runtime stops at once and names the exact flag, for the class path and for the named
 * module alike; an executable jar carrying Enable-Native-Access runs without any flag or warning.
 */
class NativeAccessTest {
  @TempDir Path temp;

  private List<String> cli(Path wheelLib) {
    return List.of("--wheel-lib", wheelLib.toString(), "--nccl-library", Bundles.NCCL.toString(), "--json");
  }

  @Test
  void onTheClassPathTheErrorNamesAllUnnamed() throws Exception {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    ChildJvm.Result result = ChildJvm.run(ChildJvm.command(List.of(), null, Main.class, cli(wheelLib)), Map.of(),
        temp.resolve("logs"));
    assertEquals(2, result.exit(), result.toString());
    assertEquals("", result.out());
    assertTrue(result.err().contains("native access is not enabled for the class path (the unnamed module). Add"
        + " --enable-native-access=ALL-UNNAMED to the java command line"), result.err());
  }

  @Test
  void onTheModulePathTheErrorNamesTheModuleAndTheFlagMakesItWork() throws Exception {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    String modulePath = String.join(File.pathSeparator, codeSource(TeRuntime.class).toString(),
        asModuleJar(codeSource(Host.class), "dev.tewheel.loader").toString(),
        asModuleJar(codeSource(Manifest.class), "dev.tewheel.bundle").toString(),
        asModuleJar(codeSource(ElfFile.class), "dev.tewheel.elf").toString(),
        asModuleJar(codeSource(Json.class), "dev.tewheel.json").toString());
    List<String> command = new ArrayList<>(List.of(ChildJvm.JAVA, "-p", modulePath, "-m",
        "dev.tewheel.runtime/dev.tewheel.runtime.cli.Main"));
    command.addAll(cli(wheelLib));
    ChildJvm.Result refused = ChildJvm.run(command, Map.of(), temp.resolve("logs-refused"));
    assertEquals(2, refused.exit(), refused.toString());
    assertTrue(refused.err().contains("native access is not enabled for module dev.tewheel.runtime. Add"
        + " --enable-native-access=dev.tewheel.runtime to the java command line"), refused.err());

    command.add(1, "--enable-native-access=dev.tewheel.runtime");
    ChildJvm.Result ran = ChildJvm.run(command, Map.of(), temp.resolve("logs-ran"));
    assertEquals(0, ran.exit(), ran.toString());
    assertEquals(Boolean.TRUE, ((Map<?, ?>) Json.parse(ran.out())).get("available"));
    assertFalse(ran.err().contains("WARNING"), ran.err());
  }

  @Test
  void anExecutableJarWithEnableNativeAccessNeedsNoFlag() throws Exception {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    Path jar = temp.resolve("te-runtime.jar");
    java.util.jar.Manifest manifest = new java.util.jar.Manifest();
    Attributes main = manifest.getMainAttributes();
    main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
    main.put(Attributes.Name.MAIN_CLASS, Main.class.getName());
    main.put(Attributes.Name.CLASS_PATH, codeSource(Host.class).toUri() + " " + codeSource(Manifest.class).toUri()
        + " " + codeSource(ElfFile.class).toUri() + " " + codeSource(Json.class).toUri());
    main.putValue("Enable-Native-Access", "ALL-UNNAMED");
    writeJar(codeSource(TeRuntime.class), jar, manifest);
    List<String> command = new ArrayList<>(List.of(ChildJvm.JAVA, "-jar", jar.toString()));
    command.addAll(cli(wheelLib));
    ChildJvm.Result ran = ChildJvm.run(command, Map.of(), temp.resolve("logs"));
    assertEquals(0, ran.exit(), ran.toString());
    assertEquals("", ran.err(), "no native-access warning on any JDK");
  }

  private static Path codeSource(Class<?> type) throws Exception {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  /** A jar as the module path needs it: the reactor may hand tests a classes folder, which is no automatic module. */
  private Path asModuleJar(Path location, String name) throws Exception {
    if (Files.isRegularFile(location)) {
      return location;
    }
    java.util.jar.Manifest manifest = new java.util.jar.Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().putValue("Automatic-Module-Name", name);
    Path jar = temp.resolve(name + ".jar");
    writeJar(location, jar, manifest);
    return jar;
  }

  private static void writeJar(Path classes, Path jar, java.util.jar.Manifest manifest) throws Exception {
    try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest);
        Stream<Path> files = Files.walk(classes)) {
      for (Path path : files.filter(Files::isRegularFile).sorted().toList()) {
        String name = classes.relativize(path).toString().replace(File.separatorChar, '/');
        if (name.equals("META-INF/MANIFEST.MF")) {
          continue;
        }
        out.putNextEntry(new JarEntry(name));
        Files.copy(path, out);
        out.closeEntry();
      }
    }
  }
}
