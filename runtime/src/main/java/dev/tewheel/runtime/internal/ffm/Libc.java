package dev.tewheel.runtime.internal.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.tewheel.elf.ElfMachine;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The few libc functions te-runtime calls: the dynamic linker ({@code dlopen}, {@code dlerror}, {@code dlsym},
 * {@code dlclose}, {@code dlinfo}), the environment ({@code getenv}, {@code setenv}), {@code geteuid},
 * {@code statvfs}, and {@code openat}, {@code fstat} and {@code close} for checking a folder or a library by what was
 * opened rather than by name (host.TrustedFolder, host.PinnedLibrary).
 *
 * <p>All of them go through one downcall shape, {@code long f(long, long, long)}, and {@code statvfs} through the
 * same shape with errno captured. Each distinct shape costs the JVM a freshly generated class the first time (8-28 ms
 * cold, even with an AOT cache; docs/performance.md), and these calls sit on the path from nothing loaded to the
 * first NCCL EP call. One shape is exact here, not a cast: every argument and result of these functions is a pointer
 * or an integer, and on the only two ABIs te-runtime runs on (System V x86-64 and AAPCS64) such values travel in
 * the same general-purpose registers whatever their C width, a callee never reads an argument register it does not
 * declare, and an {@code int} result is the low 32 bits of the result register (hence the casts to int below).
 *
 * <p>Memory is read and written through {@link MemorySegment#asByteBuffer} views rather than value layouts: on this
 * path a layout's first use (its VarHandle, a string copy's type switch) would generate classes of its own.
 *
 * <p>Creating the handle is a restricted operation: callers check native access first ({@link NativeAccess#check}).
 * All C strings live in a confined arena closed before the method returns.
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

  /** openat's "relative to the working directory". */
  public static final int AT_FDCWD = -100;
  private static final int O_CLOEXEC = 0x80000;
  /** The same bit on x86-64 and aarch64: a FIFO's open returns at once instead of waiting for a writer. */
  private static final int O_NONBLOCK = 0x800;
  /** Where st_size sits in struct stat: 48 bytes in on both x86-64's own layout and the generic one of aarch64. */
  private static final int ST_SIZE = 48;

  private static final Linker LINKER = Linker.nativeLinker();
  private static final FunctionDescriptor WORDS = FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);

  // The shape, made on first use; the function's address is its first argument.
  private static final class Call {
    static final MethodHandle HANDLE = LINKER.downcallHandle(WORDS);
  }

  // The same shape with errno captured: only statvfs, off the load path, needs errno. openat and fstat, which
  // loading NCCL EP calls (the JIT cache's check), do without: another shape would cost its class there.
  private static final class CallWithErrno {
    static final StructLayout STATE = Linker.Option.captureStateLayout();
    static final VarHandle ERRNO = STATE.varHandle(PathElement.groupElement("errno"));
    static final MethodHandle HANDLE = LINKER.downcallHandle(WORDS, Linker.Option.captureCallState("errno"));
  }

  private static final MemorySegment DLOPEN = libc("dlopen");
  private static final MemorySegment DLERROR = libc("dlerror");
  private static final MemorySegment DLSYM = libc("dlsym");
  private static final MemorySegment DLCLOSE = libc("dlclose");
  private static final MemorySegment DLINFO = libc("dlinfo");
  private static final MemorySegment GETENV = libc("getenv");
  private static final MemorySegment SETENV = libc("setenv");
  private static final MemorySegment GETEUID = libc("geteuid");
  private static final MemorySegment OPENAT = libc("openat");
  private static final MemorySegment CLOSE = libc("close");
  private static final MemorySegment STATVFS = libc("statvfs");
  private static final MemorySegment STRERROR = libc("strerror");
  private static final MemorySegment STRLEN = libc("strlen");
  private static final MemorySegment DL_ITERATE_PHDR = libc("dl_iterate_phdr");

  /** struct statvfs on LP64 glibc and musl: 9 unsigned longs, then f_flag. 256 bytes covers the whole struct. */
  private static final long STATVFS_SIZE = 256;
  private static final long STATVFS_F_FLAG = 9 * JAVA_LONG.byteSize();
  /** A pointer's and an unsigned long's size on LP64. */
  private static final int WORD = 8;

  private Libc() {}

  /**
   * What differs between the two ABIs: open(2)'s O_DIRECTORY and O_NOFOLLOW bits, and where st_mode and st_uid sit
   * in struct stat (x86-64's own layout; aarch64 uses the kernel's generic one). st_dev and st_ino are the first two
   * 8-byte fields on both. {@code statVersion} is the first argument of {@code __fxstat}, glibc's fstat before 2.33.
   */
  private record Abi(int directory, int noFollow, int modeOffset, int uidOffset, int statVersion) {
    static final Abi X86_64 = new Abi(0x10000, 0x20000, 24, 28, 1);
    static final Abi AARCH64 = new Abi(0x4000, 0x8000, 16, 24, 0);

    static Abi current() {
      ElfMachine machine = HostMachine.current();
      return machine == ElfMachine.X86_64 ? X86_64 : machine == ElfMachine.AARCH64 ? AARCH64 : null;
    }
  }

  // The descriptor-based file calls, made on first use: fstat is a libc function only since glibc 2.33, before
  // which only __fxstat(version, fd, buf) exists.
  private static final class FileCalls {
    static final Abi ABI = Abi.current();
    static final Optional<MemorySegment> FSTAT = LINKER.defaultLookup().find("fstat");
    static final MemorySegment FXSTAT = FSTAT.isPresent() ? null : libc("__fxstat");
  }

  /** struct stat is 144 bytes on x86-64 and 128 on aarch64. */
  private static final long STAT_SIZE = 256;

  /**
   * What fstat says of an open file: its identity (st_dev, st_ino), st_mode, owner and size.
   *
   * @param mode st_mode: type and permission bits, sticky bit included
   */
  public record FileStatus(long device, long inode, int mode, int uid, long size) {
    public boolean isDirectory() {
      return (mode & 0170000) == 0040000;
    }

    public boolean isRegularFile() {
      return (mode & 0170000) == 0100000;
    }

    /** Whether {@code path} names this file now: the same st_dev and st_ino. */
    public boolean isAt(Path path, LinkOption... options) throws IOException {
      Map<String, Object> now = Files.readAttributes(path, "unix:dev,ino", options);
      return ((Number) now.get("dev")).longValue() == device && ((Number) now.get("ino")).longValue() == inode;
    }
  }

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
      call(DLERROR, 0, 0, 0); // clears a stale message
      long handle = call(DLOPEN, file == null ? 0 : cString(arena, file), flags, 0);
      if (handle == 0) {
        String error = lastDlError();
        return new Opened(null, error == null ? "dlopen failed without a dlerror message" : error);
      }
      return new Opened(MemorySegment.ofAddress(handle), null);
    }
  }

  /** The address of {@code name} in {@code handle}'s library or its dependencies, or empty. */
  public static Optional<MemorySegment> dlsym(MemorySegment handle, String name) {
    try (Arena arena = Arena.ofConfined()) {
      long address = call(DLSYM, handle.address(), cString(arena, name), 0);
      return address == 0 ? Optional.empty() : Optional.of(MemorySegment.ofAddress(address));
    }
  }

  public static void dlclose(MemorySegment handle) {
    call(DLCLOSE, handle.address(), 0, 0);
  }

  /** l_name of {@code handle}'s link map as the dynamic linker keeps it (dladdr reports the same), or null. */
  public static String linkMapName(MemorySegment handle) {
    long name = linkMapWord(handle, 1);
    return name == 0 ? null : string(name);
  }

  /**
   * The l_name of every loaded object ("" for the main program) in the linker's order, by {@code dl_iterate_phdr}
   * (under the linker's lock). An upcall costs 14-20 ms cold: only where ld.so would wait (LinkerHost.loadedFile).
   */
  public static List<String> linkMapNames() {
    List<String> names = new ArrayList<>();
    try (Arena arena = Arena.ofConfined()) {
      MethodHandle visit = MethodHandles.lookup().findStatic(Libc.class, "visit", MethodType.methodType(int.class,
          List.class, MemorySegment.class, long.class, MemorySegment.class)).bindTo(names);
      call(DL_ITERATE_PHDR, LINKER.upcallStub(visit, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS),
          arena).address(), 0, 0);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
    if (names.contains(null)) {
      throw new IllegalStateException("dl_iterate_phdr gave an object whose name te-runtime could not read");
    }
    return names;
  }

  /** dl_iterate_phdr's callback: dlpi_name, the second word. Nothing may be thrown into C: a failure is a null. */
  private static int visit(List<String> names, MemorySegment info, long size, MemorySegment data) {
    try {
      long name = words(info.reinterpret(2L * WORD)).getLong(WORD);
      names.add(name == 0 ? "" : string(name));
      return 0;
    } catch (Throwable t) {
      names.add(null);
      return 1;
    }
  }

  /** l_ld of {@code handle}'s link map: its dynamic section, inside the mapping of its own file; 0 if unknown. */
  public static long dynamicSection(MemorySegment handle) {
    return linkMapWord(handle, 2);
  }

  /** Word {@code index} of {@code struct link_map { ElfW(Addr) l_addr; char *l_name; ElfW(Dyn) *l_ld; ... }}. */
  private static long linkMapWord(MemorySegment handle, int index) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(WORD, WORD);
      if ((int) call(DLINFO, handle.address(), RTLD_DI_LINKMAP, out.address()) != 0) {
        lastDlError();
        return 0;
      }
      long linkMap = words(out).getLong(0);
      return words(MemorySegment.ofAddress(linkMap).reinterpret(3L * WORD)).getLong(index * WORD);
    }
  }

  /** libc's getenv: the environment as native code sees it (System.getenv keeps the copy it made on first use). */
  public static String getenv(String name) {
    try (Arena arena = Arena.ofConfined()) {
      return string(call(GETENV, cString(arena, name), 0, 0));
    }
  }

  /**
   * libc's setenv; with overwrite false an existing value is kept.
   *
   * @throws IllegalArgumentException for a name setenv refuses (empty, or holding '=')
   * @throws IOException when setenv fails, which for a valid name POSIX allows only for want of memory
   */
  public static void setenv(String name, String value, boolean overwrite) throws IOException {
    if (name.isEmpty() || name.indexOf('=') >= 0) {
      throw new IllegalArgumentException("setenv refuses the variable name '" + name + "' (empty or holding '=')");
    }
    try (Arena arena = Arena.ofConfined()) {
      if ((int) call(SETENV, cString(arena, name), cString(arena, value), overwrite ? 1 : 0) != 0) {
        throw new IOException("setenv(" + name + ") failed: out of memory (ENOMEM, the only error POSIX gives"
            + " setenv for a valid name)");
      }
    }
  }

  /**
   * glibc's {@code gnu_get_libc_version()}, "2.41", through the one shape (a call of no arguments: the callee reads
   * none of the three); null on another C library.
   */
  public static String glibcVersion() {
    Optional<MemorySegment> function = LINKER.defaultLookup().find("gnu_get_libc_version");
    return function.isPresent() ? string(call(function.get(), 0, 0, 0)) : null;
  }

  /**
   * The four active words of glibc's {@code __x86_get_cpuid_feature_leaf(leaf)} (glibc 2.33+, sys/platform/x86.h:
   * {@code struct cpuid_feature { unsigned cpuid_array[4]; unsigned active_array[4]; }}), eax..edx; null when this
   * glibc has no such function. Through the one shape: the unsigned argument travels in a whole register.
   */
  public static int[] x86ActiveFeatures(int leaf) {
    Optional<MemorySegment> function = LINKER.defaultLookup().find("__x86_get_cpuid_feature_leaf");
    if (function.isEmpty()) {
      return null;
    }
    long address = call(function.get(), leaf, 0, 0);
    ByteBuffer words = MemorySegment.ofAddress(address).reinterpret(32).asByteBuffer().order(ByteOrder.nativeOrder());
    return new int[] {words.getInt(16), words.getInt(20), words.getInt(24), words.getInt(28)};
  }

  /** The effective uid: the owner of files this process creates, and whom the kernel's access checks see. */
  public static int geteuid() {
    return (int) call(GETEUID, 0, 0, 0);
  }

  /** statvfs's f_flag for the file system holding {@code path} (ST_NOEXEC, ST_RDONLY, ...). */
  public static long mountFlags(Path path) throws IOException {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment state = arena.allocate(CallWithErrno.STATE);
      MemorySegment buffer = arena.allocate(STATVFS_SIZE, 8);
      int rc;
      try {
        rc = (int) (long) CallWithErrno.HANDLE.invokeExact(STATVFS, state, cString(arena, path.toString()),
            buffer.address(), 0L);
      } catch (Throwable t) {
        throw unexpected(t);
      }
      if (rc != 0) {
        int errno = (int) CallWithErrno.ERRNO.get(state, 0L);
        String text = string(call(STRERROR, errno, 0, 0));
        throw new IOException("statvfs(" + path + ") failed: " + (text == null ? "" : text + " ") + "(errno " + errno
            + ")");
      }
      return words(buffer).getLong((int) STATVFS_F_FLAG);
    }
  }

  /**
   * {@code openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)}: a descriptor of the folder
   * {@code name} itself, never of what a symbolic link there points to, nor of a file that is not a folder. Close it
   * with {@link #close}.
   *
   * @param dirfd an open folder, or {@link #AT_FDCWD}
   * @return the descriptor, or -1 when openat fails (a link, not a folder, missing, not permitted): the caller, who
   *     refuses the folder either way, asks the file system which for its message
   */
  public static int openFolder(int dirfd, String name) throws IOException {
    Abi abi = abi();
    try (Arena arena = Arena.ofConfined()) {
      int fd = (int) call(OPENAT, dirfd, cString(arena, name), abi.directory() | abi.noFollow() | O_CLOEXEC);
      return fd < 0 ? -1 : fd;
    }
  }

  /**
   * {@code openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)}, with {@code O_NOFOLLOW} unless
   * {@code followLinks}: a descriptor of what the path names now, for reading and for dlopen through
   * {@code /proc/self/fd/N} (host.PinnedLibrary). O_NONBLOCK only keeps a FIFO from blocking the open; the caller
   * fstats the descriptor and refuses anything but a regular file. Close it with {@link #close}.
   *
   * @return the descriptor, or -1 when openat fails (missing, a link without followLinks, not permitted): the
   *     caller asks the file system which, for its message
   */
  public static int openFile(String path, boolean followLinks) throws IOException {
    Abi abi = abi();
    try (Arena arena = Arena.ofConfined()) {
      int fd = (int) call(OPENAT, AT_FDCWD, cString(arena, path), O_CLOEXEC | O_NONBLOCK
          | (followLinks ? 0 : abi.noFollow()));
      return fd < 0 ? -1 : fd;
    }
  }

  /** fstat of an open descriptor. */
  public static FileStatus fstat(int fd) throws IOException {
    Abi abi = abi();
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment buffer = arena.allocate(STAT_SIZE, 8);
      int rc = FileCalls.FSTAT.isPresent() ? (int) call(FileCalls.FSTAT.get(), fd, buffer.address(), 0)
          : (int) call(FileCalls.FXSTAT, abi.statVersion(), fd, buffer.address());
      if (rc != 0) {
        throw new IOException("fstat(" + fd + ") failed");
      }
      ByteBuffer stat = words(buffer);
      return new FileStatus(stat.getLong(0), stat.getLong(8), stat.getInt(abi.modeOffset()),
          stat.getInt(abi.uidOffset()), stat.getLong(ST_SIZE));
    }
  }

  public static void close(int fd) {
    call(CLOSE, fd, 0, 0);
  }

  private static Abi abi() throws IOException {
    Abi abi = FileCalls.ABI;
    if (abi == null) {
      throw new IOException("te-runtime knows open(2)'s flags and struct stat only on x86-64 and aarch64, not on "
          + System.getProperty("os.arch"));
    }
    return abi;
  }

  private static String lastDlError() {
    return string(call(DLERROR, 0, 0, 0));
  }

  private static long call(MemorySegment function, long a, long b, long c) {
    try {
      return (long) Call.HANDLE.invokeExact(function, a, b, c);
    } catch (Throwable t) {
      throw unexpected(t);
    }
  }

  /** {@code text} as a NUL-terminated UTF-8 string in {@code arena}. */
  private static long cString(Arena arena, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    MemorySegment segment = arena.allocate(bytes.length + 1L);
    segment.asByteBuffer().put(bytes).put((byte) 0);
    return segment.address();
  }

  /** The NUL-terminated UTF-8 string at {@code address}, or null for NULL. */
  private static String string(long address) {
    if (address == 0) {
      return null;
    }
    byte[] bytes = new byte[Math.toIntExact(call(STRLEN, address, 0, 0))];
    MemorySegment.ofAddress(address).reinterpret(bytes.length).asByteBuffer().get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** A native-order view of {@code segment} for reading pointers and longs. */
  private static ByteBuffer words(MemorySegment segment) {
    return segment.asByteBuffer().order(ByteOrder.nativeOrder());
  }

  private static MemorySegment libc(String name) {
    Optional<MemorySegment> symbol = LINKER.defaultLookup().find(name);
    if (symbol.isEmpty()) {
      throw new UnsatisfiedLinkError("Unresolved symbol: " + name + " in the C library");
    }
    return symbol.get();
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
