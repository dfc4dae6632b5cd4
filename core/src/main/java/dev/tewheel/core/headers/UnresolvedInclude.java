package dev.tewheel.core.headers;

import java.util.List;

/**
 * A quoted include that resolves neither to a shipped header nor to an external one.
 *
 * @param file the including header, relative to the include root
 * @param line its 1-based line number
 * @param name what the directive names
 * @param chain the headers that lead to {@code file}, from a top-level header (one no other header includes)
 *     down to {@code file} itself: all of them when they are at most {@link #HEAD} + {@link #TAIL}, else the first
 *     {@code HEAD} and the last {@code TAIL} (a hostile tree 10,000 headers deep would otherwise cost 10,000 names
 *     per finding)
 * @param depth how many headers the whole chain has
 * @param tried the paths tried, relative to the include root
 */
public record UnresolvedInclude(String file, int line, String name, List<String> chain, int depth,
    List<String> tried) {
  /** The headers a long chain keeps from its top. */
  public static final int HEAD = 3;
  /** The headers a long chain keeps above the missing include. */
  public static final int TAIL = 4;

  public UnresolvedInclude {
    chain = List.copyOf(chain);
    tried = List.copyOf(tried);
  }

  /** The chain for people: {@code a.h -> b.h -> c.h -> … (9,993 more) … -> x.h -> y.h -> z.h -> file.h}. */
  public String describeChain() {
    if (chain.size() == depth) {
      return String.join(" -> ", chain);
    }
    return String.join(" -> ", chain.subList(0, HEAD)) + " -> … (" + String.format(java.util.Locale.ROOT, "%,d",
        depth - chain.size()) + " more) … -> " + String.join(" -> ", chain.subList(HEAD, chain.size()));
  }
}
