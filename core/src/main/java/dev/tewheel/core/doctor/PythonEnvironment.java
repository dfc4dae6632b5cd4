package dev.tewheel.core.doctor;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The Python environment TE would be imported in, as far as its import depends on it: the folders searched for
 * packages in their order, {@code sysconfig}'s purelib (TE looks for NVIDIA's pip libraries only under
 * {@code <purelib>/nvidia}), and what identifies the interpreter. Made by {@link PythonQuery} from the interpreter
 * itself, or from folders the user names ({@link #ofFolders}).
 *
 * @param interpreter the interpreter asked; empty when folders were given
 * @param version Python's version ({@code 3.11.2}); empty when folders were given
 * @param prefix {@code sys.prefix}; empty when folders were given
 * @param platform {@code sysconfig.get_platform()} ({@code linux-x86_64}); empty when folders were given
 * @param extensionSuffix {@code EXT_SUFFIX} ({@code .cpython-311-x86_64-linux-gnu.so}); empty when folders were given
 * @param searchFolders where {@code import} looks, in order: the site-packages folders (and PYTHONPATH's)
 * @param purelib {@code sysconfig.get_path("purelib")}: the one folder TE's pip-library search and its second core
 *     search look in
 */
public record PythonEnvironment(Optional<Path> interpreter, Optional<String> version, Optional<Path> prefix,
    Optional<String> platform, Optional<String> extensionSuffix, List<Path> searchFolders, Path purelib) {
  public PythonEnvironment {
    searchFolders = List.copyOf(searchFolders);
  }

  /** Folders named by the user ({@code --site-packages}): searched in that order, the first is purelib. */
  public static PythonEnvironment ofFolders(List<Path> folders) {
    if (folders.isEmpty()) {
      throw new IllegalArgumentException("no site-packages folder");
    }
    return new PythonEnvironment(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), folders, folders.get(0));
  }
}
