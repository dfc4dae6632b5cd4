package dev.tewheel.pip;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The class-data archive that makes the installed command start fast: made by one training run of the image's
 * own java, a {@code te-wheel pack} with layout any of a small native wheel (which packs, verifies the wheel it
 * wrote and writes every report), so the classes of pack, verify and the reports are in it. On JDK 25 and later
 * it is an AOT cache (JEP 483/514: classes loaded and linked), {@value #AOT_CACHE}; before, a dynamic CDS archive,
 * {@value #CDS_ARCHIVE}; either in the image's lib/, where the launcher (te_wheel/__main__.py) looks for it.
 */
final class ClassArchive {
  static final String AOT_CACHE = "te-wheel.aot";
  static final String CDS_ARCHIVE = "te-wheel.jsa";

  private ClassArchive() {}

  /** Trains and writes the archive into {@code image}/lib; returns it. */
  static Path train(Path image, Path work) throws IOException {
    boolean aot = Runtime.version().feature() >= 25;
    Path archive = image.resolve("lib").resolve(aot ? AOT_CACHE : CDS_ARCHIVE);
    Path training = Files.createDirectories(work.resolve("archive-training"));
    Path pkg = Files.createDirectories(training.resolve("stage/archive_training"));
    Files.writeString(pkg.resolve("__init__.py"), "");
    // libjli.so: a real library of the image that needs nothing but glibc, so the training run passes.
    Files.copy(image.resolve("lib/libjli.so"), pkg.resolve("libjli.so"));
    Tools.succeed(List.of(image.resolve("bin/java").toString(),
        (aot ? "-XX:AOTCacheOutput=" : "-XX:ArchiveClassesAtExit=") + archive, "-m", RuntimeImage.MODULE,
        "pack", "--staging-directory", "stage", "--distribution", "archive_training", "--version", "1",
        "--layout", "any", "--wheel-directory", "dist", "--report-dir", "reports"), training, Map.of());
    if (!Files.isRegularFile(archive) || Files.size(archive) == 0) {
      throw new IOException("the training run made no class-data archive " + archive);
    }
    return archive;
  }
}
