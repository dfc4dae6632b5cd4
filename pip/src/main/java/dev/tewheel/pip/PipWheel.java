package dev.tewheel.pip;

import dev.tewheel.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Builds te-wheel's pip wheel, {@code te_wheel-<version>-py3-none-<platform>.whl}: the Python launcher
 * (te_wheel/__main__.py, console script {@code te-wheel}), the runtime image ({@link RuntimeImage}, in
 * te_wheel/java) and its class-data archive ({@link ClassArchive}), and nothing else. te-wheel itself, run on that
 * image, then says which platform tag the image's libraries allow (verify with layout any of the staged tree) and
 * packs the wheel under it with layout any, which verifies what it wrote before it takes its place.
 *
 * <p>Run by the module's build on the newest JDK 22+ it discovers (the runtime command needs java.lang.foreign):
 * {@code PipWheel <te-wheel jar> <Maven version> <python sources> <work folder> <wheel folder> <timestamp>}.
 */
public final class PipWheel {
  static final String DISTRIBUTION = "te_wheel";

  private PipWheel() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 6) {
      System.err.println("usage: PipWheel <te-wheel jar> <version> <python sources> <work folder> <wheel folder>"
          + " <output timestamp>");
      System.exit(2);
    }
    Path wheel = build(Path.of(args[0]), args[1], Path.of(args[2]), Path.of(args[3]), Path.of(args[4]), args[5]);
    System.out.println("te-wheel's pip wheel: " + wheel);
  }

  /** Builds the wheel into {@code wheels}, replacing what an earlier build wrote there; returns it. */
  static Path build(Path cliJar, String mavenVersion, Path python, Path work, Path wheels, String timestamp)
      throws IOException {
    String version = pythonVersion(mavenVersion);
    if (!Files.isRegularFile(cliJar)) {
      throw new IOException("the te-wheel jar is " + cliJar + ", not a jar file: a build whose cli module stopped before"
          + " its package phase has no jar to ship; run package or verify");
    }
    deleteTree(work);
    Path stage = Files.createDirectories(work.resolve("stage"));
    Path pkg = Files.createDirectories(stage.resolve(DISTRIBUTION));
    try (Stream<Path> sources = Files.list(python.resolve(DISTRIBUTION))) {
      for (Path source : sources.filter(p -> p.getFileName().toString().endsWith(".py")).sorted().toList()) {
        Files.copy(source, pkg.resolve(source.getFileName().toString()));
      }
    }
    Path distInfo = Files.createDirectories(stage.resolve(DISTRIBUTION + "-" + version + ".dist-info"));
    Files.writeString(distInfo.resolve("entry_points.txt"), "[console_scripts]\nte-wheel = te_wheel.__main__:main\n");

    Path image = pkg.resolve("java");
    Set<String> modules = RuntimeImage.link(cliJar, work, image);
    System.out.println("runtime: jlink of Java " + Runtime.version() + " from " + System.getProperty("java.home")
        + ", modules " + String.join(", ", modules) + " and " + RuntimeImage.MODULE);
    Path archive = ClassArchive.train(image, work);
    System.out.println("class-data archive: " + stage.relativize(archive) + ", " + Files.size(archive) + " bytes");

    String java = image.resolve("bin/java").toString();
    Tools.Run suggest = Tools.program(List.of(java, "-m", RuntimeImage.MODULE, "verify", "--layout", "any",
        "--report-dir", work.resolve("suggest").toString(), stage.toString()), work, Map.of());
    String tag = suggestedTag(work.resolve("suggest/report.json"), suggest);
    System.out.println("platform tag the gate suggests for the runtime's libraries: " + tag);

    if (Files.isDirectory(wheels)) {
      try (Stream<Path> old = Files.list(wheels)) {
        for (Path file : old.filter(p -> p.getFileName().toString().startsWith(DISTRIBUTION + "-")).toList()) {
          Files.delete(file);
        }
      }
    }
    Path wheel = wheels.resolve(DISTRIBUTION + "-" + version + "-py3-none-" + tag + ".whl");
    String packed = Tools.succeed(List.of(java, "-m", RuntimeImage.MODULE, "pack",
        "--staging-directory", stage.toString(), "--distribution", DISTRIBUTION, "--version", version,
        "--layout", "any", "--platform-tag", tag, "--wheel-directory", wheels.toString(),
        "--report-dir", work.resolve("pack").toString(),
        "--summary", "te-wheel: gates and packs Transformer Engine's wheels, with its own Java runtime",
        "--requires-python", ">=3.8", "--license", "Apache-2.0", "--home-page", "https://github.com/tewheel/te-wheel",
        "--output-timestamp", timestamp), work, Map.of());
    System.out.print(packed);
    if (!Files.isRegularFile(wheel)) {
      throw new IOException("te-wheel pack exited 0 but wrote no " + wheel + ":\n" + packed);
    }
    return wheel;
  }

  /** The suggestedPlatformTag of verify's report.json; verify must have passed. */
  private static String suggestedTag(Path report, Tools.Run verify) throws IOException {
    if (verify.exit() != 0 || !Files.isRegularFile(report)) {
      throw new IOException("te-wheel verify of the staged runtime exited " + verify.exit() + ": expected it to"
          + " pass before the wheel is packed:\n" + verify.output());
    }
    Object tag = ((Map<?, ?>) Json.parse(Files.readString(report))).get("suggestedPlatformTag");
    if (!(tag instanceof String text)) {
      throw new IOException(report + " has no suggestedPlatformTag: expected verify's suggestion for the runtime's"
          + " libraries:\n" + verify.output());
    }
    return text;
  }

  /** PEP 440's spelling of a Maven version: {@code 0.1.0-SNAPSHOT} is {@code 0.1.0.dev0}, a release stays. */
  static String pythonVersion(String maven) {
    String release = maven.endsWith("-SNAPSHOT") ? maven.substring(0, maven.length() - "-SNAPSHOT".length()) : maven;
    if (!release.matches("\\d+(\\.\\d+)*")) {
      throw new IllegalArgumentException("version " + maven + " has no PEP 440 spelling here: expected N(.N)* or"
          + " N(.N)*-SNAPSHOT");
    }
    return maven.equals(release) ? release : release + ".dev0";
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
