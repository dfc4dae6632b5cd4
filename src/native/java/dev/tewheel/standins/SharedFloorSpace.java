package dev.tewheel.standins;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** {@link FloorSpace#shared()}: the whole space, built once per build and saved with glibc's answers. */
final class SharedFloorSpace {
  private SharedFloorSpace() {}

  private static FloorSpace shared;

  /**
   * The whole space, built once per build of this module and shared by the tests of every module (elf's, core's,
   * te-runtime's): in this module's own target folder, under a key of everything that decides the files and glibc's
   * answers (this module's compiled code, gcc's and ld's versions, the glibc), written beside and renamed into place.
   * A folder whose files are not all there is built again.
   */
  static synchronized FloorSpace get() throws IOException, InterruptedException {
    if (shared != null) {
      return shared;
    }
    Path code;
    try {
      code = Path.of(FloorSpace.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IOException(e);
    }
    Path target = code.getParent(); // target/classes or target/te-wheel-native-*.jar: this module's target folder
    java.security.MessageDigest digest;
    try {
      digest = java.security.MessageDigest.getInstance("SHA-256");
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    List<Path> files;
    try (var walk = Files.walk(code)) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    }
    for (Path file : files) {
      digest.update(file.toString().getBytes(StandardCharsets.UTF_8));
      digest.update(Files.readAllBytes(file));
    }
    digest.update((version("gcc") + version("ld") + FloorSpace.hostGlibc()).getBytes(StandardCharsets.UTF_8));
    String key = java.util.HexFormat.of().formatHex(digest.digest()).substring(0, 16);
    Path dir = target.resolve("floor-space").resolve(key);
    Optional<FloorSpace> cached = load(dir);
    if (cached.isPresent()) {
      return shared = cached.get();
    }
    Path building = Files.createDirectories(dir.getParent())
        .resolve(key + ".building-" + ProcessHandle.current().pid());
    FloorSpace built = FloorSpace.build(building);
    save(built, building);
    try {
      Files.move(building, dir, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      // another build renamed its own into place first: use that one, and drop ours
      try (var walk = Files.walk(building)) {
        for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
      return shared = load(dir).orElseThrow(() -> e);
    }
    return shared = load(dir).orElseThrow(() -> new IOException("the floor space just built in " + dir
        + " does not read back"));
  }

  private static String version(String tool) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(tool, "--version").redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new AssertionError(tool + " --version failed: " + out);
    }
    return out.lines().findFirst().orElse("") + "\n";
  }

  private static final String ANSWERS = "answers.tsv";
  /** Stands for the folder in glibc's saved words, which name the files by the folder the probe ran in. */
  private static final String FOLDER = "<folder>";

  /** Writes each case with glibc's answer, paths relative to {@code dir}. */
  private static void save(FloorSpace space, Path dir) throws IOException {
    StringBuilder text = new StringBuilder("glibc\t" + space.glibc() + "\n");
    for (FloorSpace.Case c : space.cases()) {
      text.append(String.join("\t", c.definition().toString(), c.reference().name(), Boolean.toString(c.withFallback()),
          c.symbol(), dir.relativize(c.floor()).toString(), dir.relativize(c.fallback()).toString(),
          dir.relativize(c.referencing()).toString(), String.join(",", new java.util.TreeSet<>(c.edited().keySet())),
          c.glibc().kind(), c.glibc().detail().replace(dir.toString(), FOLDER))).append('\n');
    }
    Files.writeString(dir.resolve(ANSWERS + ".tmp"), text);
    Files.move(dir.resolve(ANSWERS + ".tmp"), dir.resolve(ANSWERS), StandardCopyOption.ATOMIC_MOVE);
  }

  /** The space saved in {@code dir}, when every file it names is there. */
  private static Optional<FloorSpace> load(Path dir) throws IOException {
    Path answers = dir.resolve(ANSWERS);
    if (!Files.isRegularFile(answers)) {
      return Optional.empty();
    }
    List<String> lines = Files.readAllLines(answers);
    String glibc = lines.get(0).substring("glibc\t".length());
    List<FloorSpace.Case> cases = new ArrayList<>();
    Map<FloorSpace.Definition, String> pruned = new LinkedHashMap<>();
    for (FloorSpace.Definition d : FloorSpace.all()) {
      FloorSpace.pruned(d).ifPresent(why -> pruned.put(d, why));
    }
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split("\t", -1);
      FloorSpace.Definition d = FloorSpace.Definition.parse(f[0]);
      Path floor = dir.resolve(f[4]);
      Path fallback = dir.resolve(f[5]);
      Path referencing = dir.resolve(f[6]);
      if (!Files.isRegularFile(floor) || !Files.isRegularFile(fallback) || !Files.isRegularFile(referencing)) {
        return Optional.empty();
      }
      Map<String, String> cannot = FloorSpace.toolchainCannot(d);
      Map<String, String> edited = new LinkedHashMap<>();
      for (String field : f[7].isEmpty() ? new String[0] : f[7].split(",")) {
        edited.put(field, cannot.getOrDefault(field, "?"));
      }
      String detail = f[9].replace(FOLDER, dir.toString());
      cases.add(new FloorSpace.Case(d, FloorSpace.Reference.valueOf(f[1]), Boolean.parseBoolean(f[2]), f[3], floor,
          fallback, referencing,
          Map.copyOf(edited), new FloorSpace.Outcome(f[8], detail)));
    }
    return Optional.of(FloorSpace.of(cases, pruned, glibc));
  }
}
