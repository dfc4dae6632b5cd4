package dev.tewheel.core.headers;

import java.util.List;

/**
 * A quoted include that resolves neither to a shipped header nor to an external one.
 *
 * @param file the including header, relative to the include root
 * @param line its 1-based line number
 * @param name what the directive names
 * @param chain the headers that lead to {@code file}, from a top-level header (one no other header includes)
 *     down to {@code file} itself
 * @param tried the paths tried, relative to the include root
 */
public record UnresolvedInclude(String file, int line, String name, List<String> chain, List<String> tried) {
  public UnresolvedInclude {
    chain = List.copyOf(chain);
    tried = List.copyOf(tried);
  }
}
