package dev.tewheel.runtime.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The few libc functions te-runtime calls, bound once: the dynamic linker ({@code dlopen}, {@code dlerror},
 * {@code dlsym}, {@code dlclose}, {@code dlinfo}), the environment ({@code getenv}, {@code setenv}), {@code getuid}
 * and {@code statvfs}. errno is captured with {@link Linker.Option#captureCallState}, never read after the call.
 *
 * <p>The first use of a function creates its downcall handle, a restricted operation: callers check native access
 * first ({@link NativeAccess#check}). All C strings live in a confined arena closed before the method returns.
 */
@SuppressWarnings("restricted") // native access is checked before any function is used (NativeAccess.check)
public final class Libc {
  public static final int RTLD_LAZY = 0x1;
  public static final int RTLD_NOW = 0x2;
  public static final int RTLD_NOLOAD = 0x4;
  public static final int RTLD_GLOBAL = 0x100;
  public static final int RTLD_LOCAL = 0;
  /** dlinfo request: the object's struct link_map. */
  private static final int RTLD_DI_LINKMAP = 2;
  /** statvfs f_flag bit: the file system is mounted noexec. */
  public static final long ST_NOEXEC = 8;

  private static final Linker LINKER = Linker.nativeLinker();
  private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
  private static final VarHandle ERRNO = CALL_STATE.varHandle(PathElement.groupElement("errno"));

  // One holder class per function: each downcall handle is made on first use (making one costs milliseconds, and
  // availability() needs only the dl* functions), then it is a constant.
  private static final class Dlopen {
    static final MethodHandle HANDLE = libc("dlopen", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
  }

  private static final class Dlerror {
    static final MethodHandle HANDLE = libc("dlerror", FunctionDescriptor.of(ADDRESS));
  }

  private static final class Dlsym {
    static final MethodHandle HANDLE = libc("dlsym", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
  }

  private static final class Dlclose {
    static final MethodHandle HANDLE = libc("dlclose", FunctionDescriptor.of(JAVA_INT, ADDRESS));
  }

  private static final class Dlinfo {
    static final MethodHandle HANDLE = libc("dlinfo", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
  }

  private static final class Getenv {
    static final MethodHandle HANDLE = libc("getenv", FunctionDescriptor.of(ADDRESS, ADDRESS));
  }

  private static final class Setenv {
    static final MethodHandle HANDLE = libc("setenv", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT),
        Linker.Option.captureCallState("errno"));
  }

  private static final class Getuid {
    static final MethodHandle HANDLE = libc("getuid", FunctionDescriptor.of(JAVA_INT));
  }

  private static final class Statvfs {
    static final MethodHandle HANDLE = libc("statvfs", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS),
        Linker.Option.captureCallState("errno"));
  }

  private static final class Strerror {
    static final MethodHandle HANDLE = libc("strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT));
  }

  /** struct statvfs on LP64 glibc and musl: 9 unsigned longs, then f_flag. 256 bytes covers the whole struct. */
  private static final long STATVFS_SIZE = 256;
  private static final long STATVFS_F_FLAG = 9 * JAVA_LONG.byteSize();

  private Libc() {}

  /** A dlopen result: the handle, or dlerror's text. */
  public record Opened(MemorySegment handle, String error) {
    public boolean ok() {
      return handle != null;
    }
  }

  /**
   * dlopen, with dlerror's text on failure (both called on this thread, one right after the other, since dlerror's
   * state is per thread).
   *
   * @param file a path, a bare name searched as the dynamic linker does, or null for the main program
   */
  public static Opened dlopen(String file, int flags) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment stale = (MemorySegment) Dlerror.HANDLE.invokeExact();
      // A local, not a conditional in the call: invokeExact would see a conditional as Object.
      MemorySegment name = file == null ? MemorySegment.NULL : arena.allocateFrom(file);
      MemorySegment handle = (MemorySegment) Dlopen.HANDLE.invokeExact(name, flags);
      if (handle.equals(MemorySegment.NULL)) {
        String error = lastDlError();
        return new Opened(null, error == null ? "dlopen failed without a dlerror message" : error);
      }
      return new Opened(handle, null);
    } catch (Throwable t) {
      throw unexpected(t);
    }
  }

  /** The address of {@code name} in {@code handle}'s library or its dependencies, or empty. */
  public static Optional<MemorySegment> dlsym(MemorySegment handle, String name) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment address = (MemorySegment) Dlsym.HANDLE.invokeExact(handle, arena.allocateFrom(name));
      return address.equals(MemorySegment.NULL) ? Optional.empty() : Optional.of(address);
    } catch (Throwable t) {
      throw unexpected(t);
    }
  }

  public static void dlclose(MemorySegment handle) {
    try {
      int unused = (int) Dlclose.HANDLE.invokeExact(handle);
    } catch (Throwable t) {
      throw unexpected(t);
    }
  }

  /**
   * The file the dynamic linker really mapped for {@code handle}: l_name of its link map (dlinfo
   * RTLD_DI_LINKMAP), i.e. the name it was first opened by. Empty for the main program or when dlinfo fails.
   */
  public static Optional<Path> mappedFile(MemorySegment handle) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ADDRESS);
      int rc = (int) Dlinfo.HANDLE.invokeExact(handle, RTLD_DI_LINKMAP, out);
      if (rc != 0) {
        lastDlError();
        return Optional.empty();
      }
      // struct link_map { ElfW(Addr) l_addr; char *l_name; ... }
      MemorySegment linkMap = out.get(ADDRESS, 0).reinterpret(2 * ADDRESS.byteSize());
      MemorySegment name = linkMap.get(ADDRESS, ADDRESS.byteSize());
      if (name.equals(MemorySegment.NULL)) {
        return Optional.empty();
      }
      String text = name.reinterpret(Long.MAX_VALUE).getString(0);
      return text.isEmpty() ? Optional.empty() : Optional.of(Path.of(text));
    } catch (Throwable t) {
      throw unexpected(t);
    }
  }

  /**
   * The file of an object already loaded in this process whose SONAME (or a name it was opened by) is
   * {@code soname}: dlopen with RTLD_NOLOAD, which never opens a file and never runs a constructor.
   */
  public static Optional<Path> loadedFile(String soname) {
    Opened opened = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
    if (!opened.ok()) {
      return Optional.empty();
    }
    try {
      return mappedFile(opened.handle());
    } finally {
      dlclose(opened.handle());
    }
  }

  /** libc's getenv: the environment as native code sees it (System.getenv keeps the copy it made on first use). */
  public static String getenv(String name) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment value = (MemorySegment) Getenv.HANDLE.invokeExact(arena.allocateFrom(name));
      return value.equals(MemorySegment.NULL) ? null : value.reinterpret(Long.MAX_VALUE).getString(0);
    } catch (Throwable t) {
      throw unexpected(t);
    }
  }

  /** libc's setenv; with overwrite false an existing value is kept. */
  public static void setenv(String name, String value, boolean overwrite) throws IOException {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment state = arena.allocate(CALL_STATE);
      int rc = (int) Setenv.HANDLE.invokeExact(state, arena.allocateFrom(name), arena.allocateFrom(value),
          overwrite ? 1 : 0);
      if (rc != 0) {
        throw new IOException("setenv(" + name + ") failed: " + strerror((int) ERRNO.get(state, 0L)));
      }
    } catch (IOException e) {
      throw e;
    } catch (Throwable t) {
      throw unexpected(t);
    }
  }

  public static int getuid() {
    try {
      return (int) Getuid.HANDLE.invokeExact();
    } catch (Throwable t) {
      throw unexpected(t);
    }
  }

  /** statvfs's f_flag for the file system holding {@code path} (ST_NOEXEC, ST_RDONLY, ...). */
  public static long mountFlags(Path path) throws IOException {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment state = arena.allocate(CALL_STATE);
      MemorySegment buffer = arena.allocate(STATVFS_SIZE, 8);
      int rc = (int) Statvfs.HANDLE.invokeExact(state, arena.allocateFrom(path.toString()), buffer);
      if (rc != 0) {
        throw new IOException("statvfs(" + path + ") failed: " + strerror((int) ERRNO.get(state, 0L)));
      }
      return buffer.get(JAVA_LONG, STATVFS_F_FLAG);
    } catch (IOException e) {
      throw e;
    } catch (Throwable t) {
      throw unexpected(t);
    }
  }

  private static String strerror(int errno) throws Throwable {
    MemorySegment text = (MemorySegment) Strerror.HANDLE.invokeExact(errno);
    return (text.equals(MemorySegment.NULL) ? "errno " + errno : text.reinterpret(Long.MAX_VALUE).getString(0))
        + " (errno " + errno + ")";
  }

  private static String lastDlError() throws Throwable {
    MemorySegment error = (MemorySegment) Dlerror.HANDLE.invokeExact();
    return error.equals(MemorySegment.NULL) ? null : error.reinterpret(Long.MAX_VALUE).getString(0);
  }

  private static MethodHandle libc(String name, FunctionDescriptor descriptor, Linker.Option... options) {
    MemorySegment address = LINKER.defaultLookup().find(name)
        .orElseThrow(() -> new UnsatisfiedLinkError("Unresolved symbol: " + name + " in the C library"));
    return LINKER.downcallHandle(address, descriptor, options);
  }

  /**
   * What a downcall's invokeExact threw, unchecked: runtime exceptions and errors as they are, anything else
   * wrapped. Every binding of te-runtime rethrows through this.
   */
  public static RuntimeException unexpected(Throwable t) {
    if (t instanceof RuntimeException e) {
      throw e;
    }
    if (t instanceof Error e) {
      throw e;
    }
    return new IllegalStateException(t);
  }
}
