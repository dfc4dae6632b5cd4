package dev.tewheel.pip;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JDK modules the te-wheel jar needs, from {@code jdeps -verbose:class}: every class of te-wheel's own packages
 * ({@code dev.tewheel.*}) may run, and so may each class of the jar they reach, transitively; the modules those
 * classes refer to are the answer. {@code jdeps --print-module-deps} alone would also count the dependencies'
 * classes that nothing of te-wheel reaches (Commons Compress's pack200 needs java.desktop, Plexus Utils java.sql),
 * tripling the runtime.
 */
final class ModulesNeeded {
  /** One edge of jdeps' class listing: {@code    a.B -> c.D    <jar file name or module>}. */
  private static final Pattern EDGE = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)\\s+(\\S+)\\s*$");
  private static final String OWN = "dev.tewheel.";

  private ModulesNeeded() {}

  /** The modules named in jdeps' class listing {@code listing} of the jar {@code jarName}, sorted. */
  static Set<String> of(String listing, String jarName) throws IOException {
    Map<String, Set<String>> inJar = new HashMap<>();
    Map<String, Set<String>> modules = new HashMap<>();
    for (String line : listing.split("\n")) {
      Matcher edge = EDGE.matcher(line);
      if (!edge.matches()) {
        continue;
      }
      String from = edge.group(1);
      String where = edge.group(3);
      if (where.equals(jarName)) {
        inJar.computeIfAbsent(from, k -> new HashSet<>()).add(edge.group(2));
      } else if (!where.equals("not")) { // "not found": a class no module or jar provides (an optional dependency)
        modules.computeIfAbsent(from, k -> new HashSet<>()).add(where);
      }
    }
    Deque<String> pending = new ArrayDeque<>();
    Set<String> reached = new HashSet<>();
    for (String type : inJar.keySet()) {
      if (type.startsWith(OWN) && reached.add(type)) {
        pending.add(type);
      }
    }
    for (String type : modules.keySet()) {
      if (type.startsWith(OWN) && reached.add(type)) {
        pending.add(type);
      }
    }
    if (pending.isEmpty()) {
      throw new IOException("jdeps listed no class of " + OWN + "* in " + jarName + ": expected the te-wheel jar");
    }
    Set<String> needed = new TreeSet<>();
    while (!pending.isEmpty()) {
      String type = pending.remove();
      needed.addAll(modules.getOrDefault(type, Set.of()));
      for (String next : inJar.getOrDefault(type, Set.of())) {
        if (reached.add(next)) {
          pending.add(next);
        }
      }
    }
    needed.add("java.base");
    return needed;
  }
}
