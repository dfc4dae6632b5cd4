package dev.tewheel.runtime;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.manifest.FileKind;
import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.bundle.manifest.ManifestEntry;
import dev.tewheel.bundle.ncclep.NcclEpLibraryName;
import dev.tewheel.bundle.ncclep.NcclEpVersion;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/** wheel_lib folders laid out by hand from the stand-ins, with manifests written by bundle's own Manifest code. */
@SuppressWarnings("restricted") // tests run with --enable-native-access=ALL-UNNAMED
public final class Bundles {
  public static final Path NCCL = StandIns.ncclLibDir().resolve("libnccl.so.2");
  public static final Path OLD_NCCL = StandIns.oldNcclLibDir().resolve("libnccl.so.2");

  private Bundles() {}

  /** TE's default release layout: libtransformer_engine.so, libnccl_ep.so, nccl_ep/include/. No manifest. */
  public static Path defaultLayout(Path folder) throws IOException {
    Files.createDirectories(folder);
    Files.copy(StandIns.transformerEngine(), folder.resolve("libtransformer_engine.so"));
    Files.copy(StandIns.ncclEpLibrary(), folder.resolve("libnccl_ep.so"));
    copyTree(StandIns.ncclEpHome().resolve("include"), folder.resolve("nccl_ep/include"));
    return folder;
  }

  /** The ep-home layout: wheel_lib/nccl_ep is a complete NCCL_EP_HOME (lib/libnccl_ep.so.0, include/). */
  public static Path epHomeLayout(Path folder) throws IOException {
    Files.createDirectories(folder.resolve("nccl_ep/lib"));
    Files.copy(StandIns.transformerEngine(), folder.resolve("libtransformer_engine.so"));
    Files.copy(StandIns.ncclEpLibrary(), folder.resolve("nccl_ep/lib/libnccl_ep.so.0"));
    copyTree(StandIns.ncclEpHome().resolve("include"), folder.resolve("nccl_ep/include"));
    return folder;
  }

  /** Writes te-wheel-lib.json for every file of {@code folder}, as te:assemble-wheel-lib does. */
  public static Manifest writeManifest(Path folder, String layout) throws IOException {
    Layout shape = Layout.named(layout);
    List<ManifestEntry> entries = new ArrayList<>();
    NcclEpVersion version = NcclEpVersion.fromHeader(Files.readString(folder.resolve(shape.includeRoot())
        .resolve(NcclEpVersion.HEADER)));
    try (Stream<Path> files = Files.walk(folder)) {
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        String path = folder.relativize(file).toString();
        if (path.equals(Layout.MANIFEST)) {
          continue;
        }
        long size = Files.size(file);
        String sha256 = sha256(file);
        if (path.equals(shape.transformerEngineLibrary())) {
          String soname = ElfFile.read(file).soname().orElse(null);
          entries.add(new ManifestEntry(path, FileKind.TRANSFORMER_ENGINE_LIBRARY, size, sha256, soname, null, null));
        } else if (NcclEpLibraryName.parse(file.getFileName().toString()).isPresent()) {
          String soname = ElfFile.read(file).soname().orElseThrow();
          entries.add(new ManifestEntry(path, FileKind.NCCL_EP_LIBRARY, size, sha256, soname,
              NcclEpLibraryName.sonameMajor(soname).getAsInt(), version.toString()));
        } else {
          entries.add(ManifestEntry.header(path, size, sha256));
        }
      }
    }
    Manifest manifest = new Manifest(shape.name(), shape.ncclEpHome(), shape.includeRoot(), entries);
    manifest.write(folder.resolve(Layout.MANIFEST));
    return manifest;
  }

  public static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : files.toList()) {
        Path target = to.resolve(from.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target);
        }
      }
    }
  }

  public static String sha256(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      byte[] buffer = new byte[1 << 16];
      for (int n; (n = in.read(buffer)) > 0; ) {
        digest.update(buffer, 0, n);
      }
      return HexFormat.of().formatHex(digest.digest());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  // Raw libc calls for tests that play "another component" or set the environment themselves.

  private static final Linker LINKER = Linker.nativeLinker();

  public static MethodHandle libc(String name, FunctionDescriptor descriptor) {
    return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), descriptor);
  }

  /** dlopen as another component of the process would; fails the test when it returns NULL. */
  public static MemorySegment dlopen(Path file, int flags) throws Throwable {
    MethodHandle dlopen = libc("dlopen", FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS,
        ValueLayout.JAVA_INT));
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment handle = (MemorySegment) dlopen.invokeExact(arena.allocateFrom(file.toString()), flags);
      if (handle.equals(MemorySegment.NULL)) {
        throw new AssertionError("dlopen(" + file + ") failed");
      }
      return handle;
    }
  }

  public static void setenv(String name, String value) throws Throwable {
    MethodHandle setenv = libc("setenv", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
        ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    try (Arena arena = Arena.ofConfined()) {
      if ((int) setenv.invokeExact(arena.allocateFrom(name), arena.allocateFrom(value), 1) != 0) {
        throw new AssertionError("setenv " + name);
      }
    }
  }

  public static void unsetenv(String name) throws Throwable {
    MethodHandle unsetenv = libc("unsetenv", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
    try (Arena arena = Arena.ofConfined()) {
      int unused = (int) unsetenv.invokeExact(arena.allocateFrom(name));
    }
  }

  public static String getenv(String name) throws Throwable {
    MethodHandle getenv = libc("getenv", FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS));
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment value = (MemorySegment) getenv.invokeExact(arena.allocateFrom(name));
      return value.equals(MemorySegment.NULL) ? null : value.reinterpret(Long.MAX_VALUE).getString(0);
    }
  }

  public static final int RTLD_NOW = 0x2;
  public static final int RTLD_GLOBAL = 0x100;
}
