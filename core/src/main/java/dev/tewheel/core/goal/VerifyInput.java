package dev.tewheel.core.goal;

import dev.tewheel.bundle.layout.Layout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * One thing te-wheel verify checks: a .whl (read in place) or a wheel_lib folder.
 *
 * @param path the file or folder
 * @param wheel whether it is a .whl
 */
public record VerifyInput(Path path, boolean wheel) {
  /**
   * What a path given to verify names: a file is a .whl; a folder holding te-wheel-lib.json is a wheel_lib; a folder
   * holding .whl files is a folder of wheels, each verified (sorted by name; its other files are not looked at);
   * any other folder is a wheel_lib, which the checks then judge.
   *
   * @throws NoSuchFileException when there is nothing at the path
   */
  public static List<VerifyInput> of(Path path) throws IOException {
    if (Files.isRegularFile(path)) {
      return List.of(new VerifyInput(path, true));
    }
    if (!Files.isDirectory(path)) {
      throw new NoSuchFileException(path.toString(), null, "neither a .whl nor a folder");
    }
    if (Files.exists(path.resolve(Layout.MANIFEST))) {
      return List.of(new VerifyInput(path, false));
    }
    List<VerifyInput> wheels = new ArrayList<>();
    try (Stream<Path> children = Files.list(path)) {
      children.filter(p -> p.getFileName().toString().endsWith(".whl") && Files.isRegularFile(p)).sorted()
          .forEach(p -> wheels.add(new VerifyInput(p, true)));
    }
    return wheels.isEmpty() ? List.of(new VerifyInput(path, false)) : List.copyOf(wheels);
  }

  /**
   * Where this input's reports go: {@code folder} itself when it is the only input, else a folder in it named after
   * the input (the wheel's name without .whl), so that no report overwrites another's.
   */
  public Path reportFolder(Path folder, boolean only) {
    if (folder == null || only) {
      return folder;
    }
    String name = path.getFileName().toString();
    return folder.resolve(wheel && name.endsWith(".whl") ? name.substring(0, name.length() - ".whl".length()) : name);
  }
}
