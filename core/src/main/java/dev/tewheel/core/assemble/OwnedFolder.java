package dev.tewheel.core.assemble;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.bundle.manifest.ManifestEntry;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rule that assemble replaces only what it wrote (design decision 9): the output folder may be replaced as a
 * whole only when it does not exist, is empty, or holds nothing but the files its manifest lists (and the manifest);
 * and no input may lie inside it. Anything else stops the run before a byte is written, naming the files.
 */
final class OwnedFolder {
  /** How many foreign files an error names before it only counts the rest. */
  private static final int NAMED = 20;

  private OwnedFolder() {}

  /**
   * @param inputs what the run reads, by the parameter that names it (real paths of the planned sources too)
   * @throws AssembleException when replacing {@code out} would destroy an input or a file assemble did not write
   */
  static void check(Path out, Map<String, Collection<Path>> inputs) throws AssembleException {
    Path folder = out.toAbsolutePath().normalize();
    if (!Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Path real = realFolder(folder);
    for (Map.Entry<String, Collection<Path>> input : inputs.entrySet()) {
      for (Path path : input.getValue()) {
        if (path.toAbsolutePath().normalize().startsWith(folder) || real(path).startsWith(real)) {
          throw new AssembleException(input.getKey() + " " + path + " lies inside outputDirectory " + folder
              + ", which assemble replaces as a whole, so the input would be destroyed; nothing was changed. Keep"
              + " the inputs outside outputDirectory (move them, or choose another outputDirectory)");
        }
      }
    }
    Set<String> owned = new HashSet<>();
    String why = owned(folder, owned);
    List<String> foreign = foreign(folder, owned);
    if (!foreign.isEmpty()) {
      throw new AssembleException("outputDirectory " + folder + " holds " + foreign.size() + " file"
          + (foreign.size() == 1 ? "" : "s") + " " + why + ": " + names(foreign) + ". Assemble replaces the whole"
          + " folder, so they would be lost; nothing was changed. Move them out of " + folder + ", or choose an"
          + " outputDirectory of assemble's own (delete " + folder + " first if nothing in it is needed)");
    }
  }

  /** The folder's own path, which must be a folder (not a link to one, not a file). */
  private static Path realFolder(Path folder) throws AssembleException {
    if (Files.isSymbolicLink(folder) || !Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
      throw new AssembleException("outputDirectory " + folder + " is " + (Files.isSymbolicLink(folder)
          ? "a symbolic link" : "not a folder") + ": expected a folder that assemble writes (or none); nothing was"
          + " changed. Remove it, or choose another outputDirectory");
    }
    return real(folder);
  }

  private static Path real(Path path) {
    try {
      return path.toRealPath();
    } catch (IOException e) {
      return path.toAbsolutePath().normalize();
    }
  }

  /**
   * Fills {@code owned} with what the folder's manifest says assemble wrote (its files, their folders, the manifest
   * itself); returns how to say why the other files are not assemble's.
   */
  private static String owned(Path folder, Set<String> owned) {
    Path manifestFile = folder.resolve(Layout.MANIFEST);
    if (!Files.isRegularFile(manifestFile, LinkOption.NOFOLLOW_LINKS)) {
      return "and no manifest " + Layout.MANIFEST + ", so assemble did not write them";
    }
    try {
      for (ManifestEntry entry : Manifest.read(manifestFile).files()) {
        owned.add(entry.path());
        for (int slash = entry.path().lastIndexOf('/'); slash > 0; slash = entry.path().lastIndexOf('/', slash - 1)) {
          owned.add(entry.path().substring(0, slash) + "/");
        }
      }
      owned.add(Layout.MANIFEST);
      return "that its manifest " + Layout.MANIFEST + " does not list";
    } catch (IOException | RuntimeException e) {
      owned.clear();
      return "and a " + Layout.MANIFEST + " that is not one assemble wrote (" + e.getMessage() + ")";
    }
  }

  /**
   * The entries assemble did not write, relative, sorted: every file, link or other non-folder {@code owned} does
   * not list, and every empty folder that holds none of the listed files (as {@code name/}).
   */
  private static List<String> foreign(Path folder, Set<String> owned) throws AssembleException {
    List<String> foreign = new ArrayList<>();
    try {
      Files.walkFileTree(folder, new SimpleFileVisitor<>() { // links are not followed
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
          String relative = relative(folder, file);
          if (!owned.contains(relative) || !attributes.isRegularFile()) {
            foreign.add(relative);
          }
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
          if (e != null) {
            throw e;
          }
          String relative = relative(folder, dir) + "/";
          if (!relative.equals("/") && !owned.contains(relative)
              && foreign.stream().noneMatch(path -> path.startsWith(relative))) {
            foreign.add(relative);
          }
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      throw new AssembleException("cannot list outputDirectory " + folder + " to tell whether assemble wrote it: "
          + e.getMessage() + "; nothing was changed", e);
    }
    foreign.sort(null);
    return foreign;
  }

  private static String relative(Path root, Path path) {
    return root.relativize(path).toString().replace('\\', '/');
  }

  private static String names(List<String> paths) {
    List<String> shown = paths.subList(0, Math.min(NAMED, paths.size()));
    return String.join(", ", shown) + (paths.size() > NAMED ? " and " + (paths.size() - NAMED) + " more" : "");
  }
}
