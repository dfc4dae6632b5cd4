package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tewheel.standins.StandIns;
import dev.tewheel.standins.StandIns.Defect;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stand-in libtransformer_engine.so behaves as TE's NCCL EP provider does, under a real dlopen through FFM:
 * it finds NCCL EP through $NCCL_EP_HOME/lib or beside itself, and refuses a major it was not built for.
 */
@SuppressWarnings("restricted") // tests run with --enable-native-access=ALL-UNNAMED
class StandInProviderTest {
  private static final Linker LINKER = Linker.nativeLinker();
  private static final int RTLD_NOW = 0x2;
  private static final int RTLD_GLOBAL = 0x100;

  @TempDir Path temp;

  @BeforeAll
  static void preloadNccl() throws Throwable {
    // libnccl_ep.so NEEDS libnccl.so.2 and has no RUNPATH: callers preload NCCL globally, as nccl4py does.
    MethodHandle dlopen = libc("dlopen", FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment path = arena.allocateFrom(StandIns.ncclLibDir().resolve("libnccl.so.2").toString());
      MemorySegment handle = (MemorySegment) dlopen.invokeExact(path, RTLD_NOW | RTLD_GLOBAL);
      if (handle.equals(MemorySegment.NULL)) {
        throw new IllegalStateException("could not preload the stand-in libnccl.so.2");
      }
    }
  }

  @AfterEach
  void clearNcclEpHome() throws Throwable {
    unsetenv("NCCL_EP_HOME");
  }

  @Test
  void findsNcclEpBesideItselfInTheDefaultLayout() throws Throwable {
    Path wheelLib = bundle("wheel_lib");
    Files.copy(StandIns.ncclEpLibrary(), wheelLib.resolve("libnccl_ep.so"));
    assertEquals(100, epVersion(wheelLib));
  }

  @Test
  void prefersNcclEpHomeAndRefusesAnotherMajor() throws Throwable {
    Path wheelLib = bundle("wheel_lib");
    Files.copy(StandIns.ncclEpLibrary(), wheelLib.resolve("libnccl_ep.so"));
    setenv("NCCL_EP_HOME", StandIns.defect(Defect.NCCL_EP_MAJOR_1_HOME).toString(), 1);
    assertEquals(-3, epVersion(wheelLib), "NVTE_EP_WRONG_MAJOR");
  }

  @Test
  void reportsNotFoundWhenNothingIsShipped() throws Throwable {
    assertEquals(-1, epVersion(bundle("empty")), "NVTE_EP_NOT_FOUND");
  }

  @Test
  void setsNcclEpHomeToTheShippedHeadersUnlessTheUserChoseOne() throws Throwable {
    Path wheelLib = bundle("wheel_lib");
    SymbolLookup te = SymbolLookup.libraryLookup(wheelLib.resolve("libtransformer_engine.so"), Arena.global());
    MethodHandle set = LINKER.downcallHandle(te.find("nvte_set_nccl_ep_home").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_INT));
    assertEquals(0, (int) set.invokeExact());
    assertEquals(wheelLib.resolve("nccl_ep").toString(), getenv("NCCL_EP_HOME"));
    setenv("NCCL_EP_HOME", "/users/choice", 1);
    assertEquals(0, (int) set.invokeExact());
    assertEquals("/users/choice", getenv("NCCL_EP_HOME"));
  }

  /** A fresh copy of the TE library per test: dlopen keeps one EP handle per loaded TE library. */
  private Path bundle(String name) throws Exception {
    Path folder = Files.createDirectories(temp.resolve(name));
    Files.copy(StandIns.transformerEngine(), folder.resolve("libtransformer_engine.so"));
    return folder;
  }

  private static int epVersion(Path wheelLib) throws Throwable {
    SymbolLookup te = SymbolLookup.libraryLookup(wheelLib.resolve("libtransformer_engine.so"), Arena.global());
    MethodHandle version = LINKER.downcallHandle(te.find("nvte_nccl_ep_version").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_INT));
    return (int) version.invokeExact();
  }

  private static MethodHandle libc(String name, FunctionDescriptor descriptor) {
    return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), descriptor);
  }

  private static void setenv(String name, String value, int overwrite) throws Throwable {
    MethodHandle setenv = libc("setenv",
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    try (Arena arena = Arena.ofConfined()) {
      assertEquals(0, (int) setenv.invokeExact(arena.allocateFrom(name), arena.allocateFrom(value), overwrite));
    }
  }

  private static void unsetenv(String name) throws Throwable {
    MethodHandle unsetenv = libc("unsetenv", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
    try (Arena arena = Arena.ofConfined()) {
      assertEquals(0, (int) unsetenv.invokeExact(arena.allocateFrom(name)));
    }
  }

  /** libc's getenv: System.getenv does not see values set through setenv. */
  private static String getenv(String name) throws Throwable {
    MethodHandle getenv = libc("getenv", FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS));
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment value = (MemorySegment) getenv.invokeExact(arena.allocateFrom(name));
      return value.equals(MemorySegment.NULL) ? null : value.reinterpret(Long.MAX_VALUE).getString(0);
    }
  }
}
