package dev.tewheel.loader;

import dev.tewheel.elf.ElfFile;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The order in which glibc's dlopen binds an object's dependencies (dl-deps.c): its DT_NEEDED names, then theirs,
 * breadth first; each name bound once, and a name that is the file name or SONAME of an object already in the load
 * not bound again. Where a name binds is the caller's: te-runtime's search of a machine ({@link LoaderSearch}),
 * SYMBOL-FLOOR's floors and shipped tree. The objects may be files or anything else the caller names them by.
 */
public final class NeededClosure {
  private NeededClosure() {}

  /**
   * An object of the load: what the caller names it by ({@code null} when it has no such name, e.g. a floor read
   * from an archive), its ELF facts, and the object whose DT_NEEDED brought it in ({@code null} for the one opened).
   */
  public record Node<F>(F file, ElfFile elf, Node<F> loader) {}

  /** An object a binding brings into the load, whose own DT_NEEDED are bound in turn. */
  public record Next<F>(F file, ElfFile elf) {}

  /** Where a name binds, for one caller. */
  public interface Binder<F, B> {
    /** The binding of {@code name}, needed by {@code owner}, the first time the name is asked. */
    B bind(Node<F> owner, String name);

    /** The object the binding brings in, if its DT_NEEDED are walked too; empty when not. */
    Optional<Next<F>> next(B binding);
  }

  /** Told of each DT_NEEDED entry in the order glibc meets them. */
  public interface Visitor<F, B> {
    /**
     * @param owner the object that needs it
     * @param binding where it binds (the same binding for every owner of that name)
     * @param first whether this is the name's first appearance in the load (its binding made now)
     */
    void needed(Node<F> owner, String name, B binding, boolean first);
  }

  /**
   * Walks the load of {@code root}.
   *
   * @param rootFile what the caller names the opened object by
   * @param rootNames the names the opened object already answers to (its file name, its SONAME)
   */
  public static <F, B> void walk(F rootFile, ElfFile root, Set<String> rootNames, Binder<F, B> binder,
      Visitor<F, B> visitor) {
    Map<String, B> bound = new HashMap<>();
    Set<String> names = new HashSet<>(rootNames);
    Deque<Node<F>> pending = new ArrayDeque<>();
    pending.add(new Node<>(rootFile, root, null));
    while (!pending.isEmpty()) {
      Node<F> node = pending.removeFirst();
      for (String name : node.elf().needed()) {
        B binding = bound.get(name);
        boolean first = binding == null;
        if (first && names.contains(name)) {
          continue; // the object itself (or one by that SONAME) is already part of this load
        }
        if (first) {
          binding = binder.bind(node, name);
          bound.put(name, binding);
          Optional<Next<F>> next = binder.next(binding);
          if (next.isPresent()) {
            if (next.get().elf().soname().isPresent()) {
              names.add(next.get().elf().soname().get());
            }
            pending.add(new Node<>(next.get().file(), next.get().elf(), node));
          }
        }
        visitor.needed(node, name, binding, first);
      }
    }
  }
}
