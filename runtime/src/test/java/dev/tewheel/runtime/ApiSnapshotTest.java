package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The API snapshot (what japicmp or revapi users keep): every public type of the exported packages, and every public
 * member of it, is listed in docs/runtime.md's API table (named relative to {@code dev.tewheel.runtime}, e.g.
 * {@code report.Availability}), and the table lists no type that is not there. A public constructor counts as the
 * member {@code new}. Adding to the API therefore means documenting it in the same change.
 */
class ApiSnapshotTest {
  private static final Path DOC = Path.of(System.getProperty("te.docs", "../docs")).resolve("runtime.md");
  private static final Pattern TICKED = Pattern.compile("`([^`]+)`");
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Set<String> OBJECT_METHODS = Set.of("equals", "hashCode", "toString");

  @Test
  void theApiTableListsEveryPublicTypeAndMember() throws Exception {
    Map<String, Set<String>> documented = table();
    Map<String, Set<String>> actual = publicApi();
    List<String> problems = new ArrayList<>();
    for (String type : actual.keySet()) {
      if (!documented.containsKey(type)) {
        problems.add("public type " + type + " is not in the API table");
        continue;
      }
      Set<String> missing = new TreeSet<>(actual.get(type));
      missing.removeAll(documented.get(type));
      if (!missing.isEmpty()) {
        problems.add(type + ": public members not in its row: " + missing);
      }
    }
    for (String type : documented.keySet()) {
      if (!actual.containsKey(type)) {
        problems.add("the API table lists " + type + ", which is not a public type of an exported package");
      }
    }
    assertEquals(List.of(), problems, "docs/runtime.md, section 'The public API', and the package disagree");
  }

  /** The packages split by job (docs/architecture.md): the entry point, errors, reports, NCCL, NCCL EP, TE. */
  @Test
  void theModuleExportsThePackagesSplitByJob() throws Exception {
    assertEquals(List.of("dev.tewheel.runtime", "dev.tewheel.runtime.error", "dev.tewheel.runtime.nccl",
        "dev.tewheel.runtime.ncclep", "dev.tewheel.runtime.report", "dev.tewheel.runtime.te"), exported());
  }

  static List<String> exported() throws IOException {
    String descriptor = Files.readString(Path.of("src/main/java/module-info.java"));
    Matcher exports = Pattern.compile("\\bexports\\s+([\\w.]+)").matcher(descriptor);
    List<String> packages = new ArrayList<>();
    while (exports.find()) {
      packages.add(exports.group(1));
    }
    return packages;
  }

  /** The rows of the table under "## The public API": type names (first column) to the names ticked in the row. */
  static Map<String, Set<String>> table() throws IOException {
    List<String> lines = Files.readAllLines(DOC);
    int start = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith("## The public API")) {
        start = i;
        break;
      }
    }
    assertTrue(start >= 0, DOC + " has no section '## The public API'");
    Map<String, Set<String>> rows = new LinkedHashMap<>();
    boolean inTable = false;
    for (int i = start + 1; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith("|")) {
        inTable = true;
        String[] cells = line.split("\\|", -1);
        if (cells.length < 4 || cells[1].isBlank() || cells[1].strip().equals("type")
            || cells[1].strip().startsWith("---")) {
          continue;
        }
        Set<String> members = new TreeSet<>();
        for (Matcher m = TICKED.matcher(cells[2]); m.find(); ) {
          Matcher name = NAME.matcher(m.group(1));
          if (name.lookingAt()) {
            members.add(name.group());
          }
        }
        for (Matcher m = TICKED.matcher(cells[1]); m.find(); ) {
          rows.computeIfAbsent(m.group(1), k -> new TreeSet<>()).addAll(members);
        }
      } else if (inTable) {
        break;
      }
    }
    return rows;
  }

  /**
   * The raw C-int tier is not API: in NCCL EP's owners and TE's library a {@code MemorySegment} crosses only as a
   * {@code cudaStream_t} or as memory the caller owns ({@code tensor}/{@code createTensor}'s data), one per method;
   * structs and handles are typed. Each method taking one, with how many it takes; {@code function(...)} is the one
   * escape hatch per library (it takes none).
   */
  @Test
  void segmentsCrossTheApiOnlyAsStreamsAndCallerOwnedData() {
    Map<String, Set<String>> actual = new TreeMap<>();
    for (Class<?> type : List.of(dev.tewheel.runtime.ncclep.NcclEp.class, dev.tewheel.runtime.ncclep.EpGroup.class,
        dev.tewheel.runtime.ncclep.EpHandle.class, dev.tewheel.runtime.ncclep.EpTensor.class,
        dev.tewheel.runtime.te.TransformerEngine.class)) {
      Set<String> methods = new TreeSet<>();
      for (Method method : type.getDeclaredMethods()) {
        long segments = Stream.of(method.getParameterTypes()).filter(java.lang.foreign.MemorySegment.class::equals)
            .count();
        if (Modifier.isPublic(method.getModifiers()) && segments > 0) {
          methods.add(method.getName() + ":" + segments);
        }
      }
      actual.put(type.getSimpleName(), methods);
    }
    assertEquals(Map.of(
        "NcclEp", Set.of("tensor:1"),
        "EpGroup", Set.of("createHandle:1", "maskClean:1", "maskQuery:1", "maskUpdate:1"),
        "EpHandle", Set.of("combine:1", "complete:1", "dispatch:1", "update:1"),
        "EpTensor", Set.of(),
        "TransformerEngine", Set.of("createTensor:1", "epCombine:1", "epCombineBwd:1", "epDispatch:1",
            "epDispatchBwd:1", "epPrepare:1")), actual);
  }

  /**
   * Each public type of the exported packages (named relative to {@code dev.tewheel.runtime}, nested ones as
   * {@code Outer.Inner}) and its public members' names.
   */
  static Map<String, Set<String>> publicApi() throws IOException, URISyntaxException, ClassNotFoundException {
    Path root = Path.of(TeRuntime.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Map<String, Set<String>> api = new TreeMap<>();
    for (String pkg : exported()) {
      String prefix = pkg.equals("dev.tewheel.runtime") ? "" : pkg.substring("dev.tewheel.runtime.".length()) + ".";
      List<Path> classes;
      try (Stream<Path> files = Files.list(root.resolve(pkg.replace('.', '/')))) {
        classes = files.filter(f -> f.getFileName().toString().endsWith(".class")).sorted().toList();
      }
      for (Path file : classes) {
        String simple = file.getFileName().toString().replace(".class", "");
        Class<?> type = Class.forName(pkg + "." + simple, false, ApiSnapshotTest.class.getClassLoader());
        if (type.isSynthetic() || type.isAnonymousClass() || type.isLocalClass() || !exported(type)) {
          continue;
        }
        api.put(prefix + simple.replace('$', '.'), members(type));
      }
    }
    return api;
  }

  private static boolean exported(Class<?> type) {
    for (Class<?> t = type; t != null; t = t.getEnclosingClass()) {
      if (!Modifier.isPublic(t.getModifiers())) {
        return false;
      }
    }
    return true;
  }

  private static Set<String> members(Class<?> type) {
    Set<String> names = new TreeSet<>();
    for (Method method : type.getDeclaredMethods()) {
      int mod = method.getModifiers();
      if (method.isSynthetic() || method.isBridge() || !(Modifier.isPublic(mod) || Modifier.isProtected(mod))
          || OBJECT_METHODS.contains(method.getName()) && method.getParameterCount() <= 1
          || type.isEnum() && (method.getName().equals("values") || method.getName().equals("valueOf"))) {
        continue;
      }
      names.add(method.getName());
    }
    for (Field field : type.getDeclaredFields()) {
      int mod = field.getModifiers();
      if (!field.isSynthetic() && (Modifier.isPublic(mod) || Modifier.isProtected(mod))) {
        names.add(field.getName());
      }
    }
    for (Constructor<?> constructor : type.getDeclaredConstructors()) {
      int mod = constructor.getModifiers();
      if (!constructor.isSynthetic() && (Modifier.isPublic(mod) || Modifier.isProtected(mod))) {
        names.add("new");
      }
    }
    return names;
  }
}
