package dev.tewheel.runtime.internal.ffm;

import dev.tewheel.runtime.error.UnresolvedSymbolException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The functions of one loaded library: addresses by dlsym on its handle, downcall handles created on first use and
 * cached by (name, descriptor, options). The library stays loaded for the life of the process (as with
 * System.loadLibrary), so addresses live in the global scope.
 */
public final class Symbols {
  private record Key(String name, FunctionDescriptor descriptor, List<Linker.Option> options) {}

  private final MemorySegment handle;
  private final Path file;
  private final Map<String, MemorySegment> addresses = new ConcurrentHashMap<>();
  private final Map<Key, MethodHandle> handles = new ConcurrentHashMap<>();

  public Symbols(MemorySegment handle, Path file) {
    this.handle = handle;
    this.file = file;
  }

  /** The function's address; throws when the library does not define it. */
  public MemorySegment address(String name) {
    MemorySegment address = addresses.get(name);
    if (address == null) {
      Optional<MemorySegment> found = Libc.dlsym(handle, name);
      if (found.isEmpty()) {
        throw new UnresolvedSymbolException(name, file.toString());
      }
      address = found.get();
      addresses.put(name, address);
    }
    return address;
  }

  /** Whether the library (or a library it needs) defines {@code name}, by dlsym. */
  public boolean defines(String name) {
    try {
      address(name);
      return true;
    } catch (UnresolvedSymbolException e) {
      return false;
    }
  }

  /** A downcall handle for {@code name}, created once per (name, descriptor, options). */
  @SuppressWarnings("restricted") // native access was checked by TeRuntime before any library was loaded
  public MethodHandle function(String name, FunctionDescriptor descriptor, Linker.Option... options) {
    Key key = new Key(name, descriptor, List.of(options));
    MethodHandle cached = handles.get(key);
    if (cached == null) {
      cached = Linker.nativeLinker().downcallHandle(address(name), descriptor, options);
      MethodHandle raced = handles.putIfAbsent(key, cached);
      cached = raced != null ? raced : cached;
    }
    return cached;
  }

  /** The file the library was opened by. */
  public Path file() {
    return file;
  }
}
