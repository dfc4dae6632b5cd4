package dev.tewheel.runtime.error;

/** A function was asked for by name and the loaded library does not define it: {@code Unresolved symbol: <name>}. */
public final class UnresolvedSymbolException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String symbol;

  public UnresolvedSymbolException(String symbol, String library) {
    super("Unresolved symbol: " + symbol + " in " + library);
    this.symbol = symbol;
  }

  public String symbol() {
    return symbol;
  }
}
