package dev.tewheel.core.check;

import dev.tewheel.bundle.layout.WheelLibPaths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Which files of a subject the library checks read: the layout's two, every other file named as a shared library
 * (*.so, *.so.N…), and every other regular file that starts with the ELF magic, whatever its name (a program such as
 * bin/tool, a library named _x.abi3): auditwheel tells ELF files by their first bytes, so a name hides nothing.
 */
public final class Libraries {
  private Libraries() {}

  /** The subject's libraries, worked out once per subject ({@link Subject#libraries()}). */
  public static List<SubjectFile> of(Subject subject) {
    return subject.libraries();
  }

  static List<SubjectFile> find(Subject subject) {
    List<SubjectFile> libraries = new ArrayList<>();
    subject.transformerEngineLibrary().ifPresent(libraries::add);
    subject.ncclEpLibrary().filter(f -> !libraries.contains(f)).ifPresent(libraries::add);
    for (SubjectFile file : subject.files()) {
      if (!libraries.contains(file) && (namedAsLibrary(file) || subject.startsAsElf(file))) {
        libraries.add(file);
      }
    }
    return List.copyOf(libraries);
  }

  /** Whether the file's name says it is a shared library, which it then must be (ELF-SHARED-OBJECT). */
  public static boolean namedAsLibrary(SubjectFile file) {
    return WheelLibPaths.isSharedObject(file.path());
  }

  /** Shell-style glob with * and ?, matched against a whole name. */
  public static boolean globMatches(String glob, String name) {
    StringBuilder regex = new StringBuilder();
    for (char c : glob.toCharArray()) {
      switch (c) {
        case '*' -> regex.append(".*");
        case '?' -> regex.append('.');
        default -> regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return name.matches(regex.toString());
  }
}
