package dev.tewheel.core.check;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Which files of a subject are shared libraries: the layout's two, and any other *.so or *.so.N… file. */
final class Libraries {
  private static final Pattern SHARED_OBJECT_NAME = Pattern.compile("[^/]*\\.so(\\.\\d+)*");

  private Libraries() {}

  static List<SubjectFile> of(Subject subject) {
    List<SubjectFile> libraries = new ArrayList<>();
    subject.transformerEngineLibrary().ifPresent(libraries::add);
    subject.ncclEpLibrary().filter(f -> !libraries.contains(f)).ifPresent(libraries::add);
    for (SubjectFile file : subject.files()) {
      String name = file.path().substring(file.path().lastIndexOf('/') + 1);
      if (!libraries.contains(file) && SHARED_OBJECT_NAME.matcher(name).matches()) {
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
