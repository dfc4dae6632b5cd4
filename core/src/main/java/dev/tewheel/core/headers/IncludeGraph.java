package dev.tewheel.core.headers;

import dev.tewheel.bundle.layout.WheelLibPaths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The quoted includes of a header tree, resolved as NCCL EP's JIT compiler resolves them, so that a wheel whose
 * headers are not self-contained is caught at build time instead of on a user's GPU.
 */
public final class IncludeGraph {
  private static final Pattern QUOTED_INCLUDE = Pattern.compile("^\\s*#\\s*include\\s*\"([^\"]+)\"");

  private final Map<String, List<String>> edges;
  private final List<UnresolvedInclude> unresolved;

  private IncludeGraph(Map<String, List<String>> edges, List<UnresolvedInclude> unresolved) {
    this.edges = edges;
    this.unresolved = unresolved;
  }

  /**
   * Builds the graph.
   *
   * @param headers every shipped header: its path relative to the include root, mapped to its text
   */
  public static IncludeGraph of(Map<String, String> headers, IncludeSearchPath searchPath) {
    Map<String, List<String>> edges = new TreeMap<>();
    List<Missing> missing = new ArrayList<>();
    for (Map.Entry<String, String> header : new TreeMap<>(headers).entrySet()) {
      String file = header.getKey();
      List<String> targets = new ArrayList<>();
      String[] lines = header.getValue().split("\n", -1);
      for (int i = 0; i < lines.length; i++) {
        Matcher matcher = QUOTED_INCLUDE.matcher(lines[i]);
        if (!matcher.find()) {
          continue;
        }
        String name = matcher.group(1);
        List<String> tried = candidates(file, name, searchPath);
        String found = tried.stream().filter(headers::containsKey).findFirst().orElse(null);
        if (found != null) {
          targets.add(found);
        } else if (!searchPath.isExternal(name)) {
          missing.add(new Missing(file, i + 1, name, tried));
        }
      }
      edges.put(file, Collections.unmodifiableList(targets));
    }
    Map<String, Place> places = places(edges);
    List<UnresolvedInclude> unresolved = new ArrayList<>();
    for (Missing m : missing) {
      Place place = places.get(m.file);
      unresolved.add(new UnresolvedInclude(m.file, m.line, m.name, chain(m.file, places), place.depth(),
          m.tried));
    }
    return new IncludeGraph(Collections.unmodifiableMap(edges), List.copyOf(unresolved));
  }

  /** Every include that resolves nowhere, in file and line order. */
  public List<UnresolvedInclude> unresolved() {
    return unresolved;
  }

  /** The shipped headers each header includes, resolved. */
  public Map<String, List<String>> edges() {
    return edges;
  }

  /** Where the JIT looks for {@code name} included from {@code file}, in order, as normalized relative paths. */
  static List<String> candidates(String file, String name, IncludeSearchPath searchPath) {
    Set<String> paths = new LinkedHashSet<>();
    int slash = file.lastIndexOf('/');
    add(paths, slash < 0 ? "" : file.substring(0, slash), name);
    for (String folder : searchPath.folders()) {
      add(paths, folder, name);
    }
    return List.copyOf(paths);
  }

  private static void add(Set<String> paths, String folder, String name) {
    String normalized = WheelLibPaths.normalize(folder.isEmpty() ? name : folder + "/" + name);
    if (normalized != null) {
      paths.add(normalized);
    }
  }

  /**
   * Where a header sits in the breadth-first walk from the top-level headers (so chains are shortest).
   *
   * @param parent the header that first includes it, null for a top-level one
   * @param depth how many headers its chain has, itself included
   * @param head the first {@link UnresolvedInclude#HEAD} headers of its chain, shared with its parent's once the
   *     chain is longer: a chain 10,000 headers deep costs a few strings per header, not 10,000
   */
  private record Place(String parent, int depth, List<String> head) {}

  /** A place for every header reachable from a top-level one (one no other header includes). */
  private static Map<String, Place> places(Map<String, List<String>> edges) {
    Set<String> included = new java.util.HashSet<>();
    edges.values().forEach(included::addAll);
    Deque<String> queue = new ArrayDeque<>();
    Map<String, Place> places = new HashMap<>();
    for (String file : edges.keySet()) {
      if (!included.contains(file)) {
        queue.add(file);
        places.put(file, new Place(null, 1, List.of(file)));
      }
    }
    // Headers only reachable through a cycle still need a root: take them in name order.
    for (String file : edges.keySet()) {
      if (!places.containsKey(file) && queue.isEmpty()) {
        queue.add(file);
        places.put(file, new Place(null, 1, List.of(file)));
      }
      while (!queue.isEmpty()) {
        String current = queue.poll();
        Place at = places.get(current);
        for (String next : edges.getOrDefault(current, List.of())) {
          if (!places.containsKey(next)) {
            List<String> head = at.head();
            if (head.size() < UnresolvedInclude.HEAD) {
              head = new ArrayList<>(head);
              head.add(next);
              head = List.copyOf(head);
            }
            places.put(next, new Place(current, at.depth() + 1, head));
            queue.add(next);
          }
        }
      }
    }
    return places;
  }

  /**
   * The chain from a top-level header down to {@code file}: whole when it has at most {@link UnresolvedInclude#HEAD}
   * + {@link UnresolvedInclude#TAIL} headers, else its first {@code HEAD} and last {@code TAIL}; found in as many
   * steps as it lists.
   */
  private static List<String> chain(String file, Map<String, Place> places) {
    Place place = places.get(file);
    boolean whole = place.depth() <= UnresolvedInclude.HEAD + UnresolvedInclude.TAIL;
    int steps = whole ? place.depth() : UnresolvedInclude.TAIL;
    List<String> tail = new ArrayList<>(steps);
    String at = file;
    for (int i = 0; i < steps && at != null; i++) {
      tail.add(at);
      at = places.get(at).parent();
    }
    Collections.reverse(tail);
    if (whole) {
      return tail;
    }
    List<String> chain = new ArrayList<>(place.head());
    chain.addAll(tail);
    return chain;
  }

  private record Missing(String file, int line, String name, List<String> tried) {}
}
