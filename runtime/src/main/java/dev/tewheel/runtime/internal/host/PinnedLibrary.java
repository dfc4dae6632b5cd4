package dev.tewheel.runtime.internal.host;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.loader.ElfFiles;
import dev.tewheel.runtime.internal.ffm.Libc;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A library file opened once, so that the bytes te-runtime checks are the bytes the dynamic linker maps
 * (docs/runtime.md, "Bytes loaded are bytes checked"). The file is opened with {@code O_RDONLY | O_CLOEXEC}
 * ({@code O_NOFOLLOW} too for a file a manifest lists, which must be the regular file itself) and fstat'ed: only a
 * regular file passes. Everything read after that goes through {@link #bytes()}, {@code /proc/self/fd/N}, which
 * reaches the opened inode whatever the path names by then, and {@link #load} gives that same name to dlopen, so a
 * file renamed over the path after the open changes nothing.
 *
 * <p>What loading by that name does (each is tested in BytesLoadedAreBytesCheckedTest):
 * <ul>
 *   <li>glibc keeps the name as the object's l_name, so dladdr and dlinfo report {@code /proc/self/fd/N};
 *       {@link LinkerHost#mappedFile} gives the path te-runtime opened instead ({@link #openedAs});</li>
 *   <li>a later DT_NEEDED entry or dlopen by SONAME still finds the object by its DT_SONAME, and a dlopen of the real
 *       path finds it by st_dev and st_ino, without mapping the file twice;</li>
 *   <li>glibc hands back an object whose l_name equals the name asked for without opening anything, so were N closed
 *       and reused for another file, {@code dlopen("/proc/self/fd/N")} would return the old library. The descriptor
 *       therefore stays open for as long as the object is mapped (te-runtime never unloads what it loaded, so for
 *       the life of the process), and a name that some other component left in the link map is never reused;</li>
 *   <li>{@code $ORIGIN} in the library's own RPATH or RUNPATH would be {@code /proc/self/fd}, and its code asking
 *       dladdr where it lives would get that folder. NCCL EP (no RUNPATH by design) and NCCL do neither; TE's core
 *       library does (its provider looks for NCCL EP beside itself), so te-runtime loads it by path instead, from a
 *       folder that {@link TrustedFolder} accepts, and checks afterwards that the file mapped is the one opened.</li>
 * </ul>
 */
public final class PinnedLibrary implements AutoCloseable {
  private static final String DESCRIPTORS = "/proc/self/fd/";
  /** How often a name already taken in the link map is stepped over before giving up. */
  private static final int TRIES = 8;
  /** The names of libraries mapped through a descriptor of this class, and the path each was opened by. */
  private static final Map<String, Path> MAPPED = new ConcurrentHashMap<>();

  private final Path file;
  private final Libc.FileStatus status;
  private int fd;
  /** Whether the descriptor's name is some object's l_name, so the descriptor must stay open. */
  private boolean named;

  private PinnedLibrary(Path file, int fd, Libc.FileStatus status) {
    this.file = file;
    this.fd = fd;
    this.status = status;
  }

  /**
   * Opens {@code file} once.
   *
   * @param followLinks false for a file a manifest lists: a symbolic link there is refused
   * @throws IOException whose message names the file, what it is, and that only a regular file is loaded
   */
  public static PinnedLibrary open(Path file, boolean followLinks) throws IOException {
    int fd = Libc.openFile(file.toString(), followLinks);
    if (fd < 0) {
      // Refused either way; the file system by name says why, for the message.
      if (!followLinks && Files.isSymbolicLink(file)) {
        throw new IOException(file + " is a symbolic link, not the regular file the manifest lists; te-runtime"
            + " loads only the file itself");
      }
      if (!Files.exists(file)) {
        throw new IOException(file + " is missing");
      }
      throw new IOException(file + " cannot be opened for reading (not permitted?)");
    }
    try {
      Libc.FileStatus status = Libc.fstat(fd);
      if (!status.isRegularFile()) {
        throw new IOException(file + " is " + WheelLibPaths.kindOf(status.mode()) + ", not a regular file: only"
            + " regular files are loaded");
      }
      return new PinnedLibrary(file, fd, status);
    } catch (IOException | RuntimeException e) {
      Libc.close(fd);
      throw e;
    }
  }

  public Path file() {
    return file;
  }

  public Libc.FileStatus status() {
    return status;
  }

  /** {@code /proc/self/fd/N}: reading it reads the opened file, whatever {@link #file()} names by now. */
  public Path bytes() {
    return Path.of(name());
  }

  /** DT_SONAME of the opened file. */
  public Optional<String> soname() throws IOException {
    return elf(false).soname();
  }

  /**
   * The ELF facts of the opened file, read through its descriptor: from an earlier read through a descriptor of the
   * same file (never from a read by path, whose stamp may be another file's), else read now.
   */
  public ElfFile elf(boolean symbols) throws IOException {
    return ElfFiles.read(file, bytes(), symbols);
  }

  /** Whether {@code path} names the opened file now (same st_dev and st_ino, links followed). */
  public boolean isNamedBy(Path path) {
    try {
      return status.isAt(path);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /**
   * Whether the object behind {@code handle} was mapped from the opened file: the device and inode of the mapping
   * that holds its dynamic section (/proc/self/maps), against fstat's. For a library loaded by path, this is how
   * te-runtime learns that the path named another file when the dynamic linker opened it.
   */
  public boolean isMappedBy(MemorySegment handle) {
    Optional<long[]> mapped = ProcMaps.fileAt(Libc.dynamicSection(handle));
    if (mapped.isEmpty()) {
      return false;
    }
    long device = status.device();
    // glibc's gnu_dev_major and gnu_dev_minor of st_dev
    long major = ((device >>> 8) & 0xfff) | ((device >>> 32) & 0xfffff000L);
    long minor = (device & 0xff) | ((device >>> 12) & 0xffffff00L);
    return mapped.get()[0] == major && mapped.get()[1] == minor && mapped.get()[2] == status.inode();
  }

  /**
   * dlopen of the opened file through {@code /proc/self/fd/N}, with dlerror's text on failure. When the object
   * takes that name, the descriptor stays open for as long as it is mapped ({@link #close} leaves it).
   */
  public Libc.Opened load(int flags) throws IOException {
    stepOverTakenNames();
    String name = name();
    MAPPED.put(name, file); // before dlopen, so that no thread ever sees the name untranslated
    Libc.Opened opened = Libc.dlopen(name, flags);
    if (opened.ok() && name.equals(Libc.linkMapName(opened.handle()))) {
      named = true;
    } else {
      // Failed, or the same inode was mapped before under another name: glibc returned that object.
      MAPPED.remove(name);
    }
    return opened;
  }

  /**
   * dlclose of a handle {@link #load} returned; the descriptor is released when the object is really gone (a library
   * marked NODELETE, or held by another component, stays mapped and keeps it).
   */
  public void unload(Libc.Opened opened) {
    Libc.dlclose(opened.handle());
    if (named && !takenByAnObject(name())) {
      named = false;
      MAPPED.remove(name());
    }
  }

  /** Closes the descriptor, unless a mapped object is known by its name (then it stays open for good). */
  @Override
  public void close() {
    if (!named && fd >= 0) {
      Libc.close(fd);
      fd = -1;
    }
  }

  /** The path te-runtime opened for a library whose l_name is {@code name}, or null when it is not one of these. */
  static Path openedAs(String name) {
    return name.startsWith(DESCRIPTORS) ? MAPPED.get(name) : null;
  }

  private String name() {
    if (fd < 0) {
      throw new IllegalStateException(file + " was closed");
    }
    return DESCRIPTORS + fd;
  }

  /**
   * Another component may have loaded some file through {@code /proc/self/fd/N} and closed N since: glibc would hand
   * back that library for this name. Open the same file again (through the name, which reaches this descriptor's
   * file) until the number is one no object is known by.
   */
  private void stepOverTakenNames() throws IOException {
    int[] stale = new int[TRIES];
    int count = 0;
    try {
      while (takenByAnObject(name())) {
        if (count == TRIES) {
          throw new IOException("te-runtime could not find a descriptor name for " + file + " that no library in"
              + " this process already has (" + TRIES + " tried)");
        }
        int again = Libc.openFile(name(), true);
        if (again < 0) {
          throw new IOException("could not open " + file + " again through " + name());
        }
        stale[count++] = fd;
        fd = again;
      }
    } finally {
      for (int i = 0; i < count; i++) {
        Libc.close(stale[i]);
      }
    }
  }

  /**
   * Whether an object in the link map is known by {@code name} itself. RTLD_NOLOAD never maps or runs anything; for a
   * path it also finds an object of the same inode loaded under another name, which is no clash (dlopen returns
   * that object, the same file), so the object's own name decides.
   */
  private static boolean takenByAnObject(String name) {
    Libc.Opened opened = Libc.dlopen(name, Libc.RTLD_LAZY | Libc.RTLD_NOLOAD);
    if (!opened.ok()) {
      return false;
    }
    try {
      return name.equals(Libc.linkMapName(opened.handle()));
    } finally {
      Libc.dlclose(opened.handle());
    }
  }
}
