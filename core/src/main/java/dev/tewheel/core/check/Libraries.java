package dev.tewheel.core.check;

import dev.tewheel.bundle.layout.WheelLibPaths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Which files of a subject are shared libraries: the layout's two, and any other *.so or *.so.N… file. */
final class Libraries {
  private Libraries() {}

  static List<SubjectFile> of(Subject subject) {
    List<SubjectFile> libraries = new ArrayList<>();
    subject.transformerEngineLibrary().ifPresent(libraries::add);
    subject.ncclEpLibrary().filter(f -> !libraries.contains(f)).ifPresent(libraries::add);
    for (SubjectFile file : subject.files()) {
      if (!libraries.contains(file) && WheelLibPaths.isSharedObject(file.path())) {
        libraries.add(file);
      }
    }
    return libraries;
  }

  /** Shell-style glob with * and ?, matched against a whole name. */
  static boolean globMatches(String glob, String name) {
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
