package dev.tewheel.bench;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import dev.tewheel.runtime.report.Availability;
import dev.tewheel.runtime.TeRuntime;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The cold paths RuntimeFirstCallBenchmark compares, from nothing loaded to the first {@code ncclEpGetVersion}, and a
 * {@code main} that runs one of them once in a fresh JVM and prints its time: for runs outside JMH, plain and with
 * the JDK's caches (bench/runtime/cold-start.sh --main), and on other machines' real libraries.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp benchmarks.jar dev.tewheel.bench.FirstCall METHOD WHEEL_LIB LIBNCCL
 * java -cp benchmarks.jar dev.tewheel.bench.FirstCall standIns FOLDER
 * </pre>
 * The second lays out the benchmarks' stand-in wheel_lib in FOLDER/wheel_lib (RuntimeFixture's layout) and prints
 * three lines: that folder, the stand-in libnccl.so.2, and the folder of the stand-in libcuda.so.1 for
 * LD_LIBRARY_PATH.
 */
public final class FirstCall {
  private static final int RTLD_NOW_GLOBAL = 0x2 | 0x100;
  private static final java.util.List<String> METHODS = java.util.List.of("teRuntime", "availability", "ffm", "jna");

  private FirstCall() {}

  /** te-runtime: availability(), loadNcclEp() (NCCL gate, preload, dlopen and its checks), getVersion(). */
  public static int teRuntime(Path wheelLib, Path nccl) {
    TeRuntime runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(nccl).build();
    Availability availability = runtime.availability();
    if (!availability.available()) {
      throw new IllegalStateException(availability.reason());
    }
    return runtime.loadNcclEp().getVersion();
  }

  /** te-runtime's availability() alone: the search and every check, nothing loaded. */
  public static int availability(Path wheelLib, Path nccl) {
    Availability availability = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(nccl).build().availability();
    if (!availability.available()) {
      throw new IllegalStateException(availability.reason());
    }
    return availability.chosenFile().isPresent() ? 1 : 0;
  }

  /**
   * A bare FFM program doing JNA's loads and call and nothing else: NCCL by a dlopen downcall with RTLD_NOW |
   * RTLD_GLOBAL, NCCL EP by {@link SymbolLookup#libraryLookup}, one downcall. What te-runtime costs over it is its
   * search and checks (and their classes); what it costs over JNA is the JDK's FFM.
   */
  @SuppressWarnings("restricted")
  public static int ffm(Path wheelLib, Path nccl) {
    Linker linker = Linker.nativeLinker();
    MethodHandle dlopen = linker.downcallHandle(linker.defaultLookup().find("dlopen").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment handle = (MemorySegment) dlopen.invokeExact(arena.allocateFrom(nccl.toString()), RTLD_NOW_GLOBAL);
      if (handle.address() == 0) {
        throw new IllegalStateException("dlopen " + nccl + " failed");
      }
      SymbolLookup ep = SymbolLookup.libraryLookup(wheelLib.resolve("libnccl_ep.so"), Arena.global());
      MethodHandle getVersion = linker.downcallHandle(ep.find("ncclEpGetVersion").orElseThrow(),
          FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
      MemorySegment version = arena.allocate(ValueLayout.JAVA_INT);
      if ((int) getVersion.invokeExact(version) != 0) {
        throw new IllegalStateException("ncclEpGetVersion failed");
      }
      return version.get(ValueLayout.JAVA_INT, 0);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }

  /** JNA: NCCL preloaded with RTLD_NOW | RTLD_GLOBAL, the bundle's NCCL EP by Native.load, one call. */
  public static int jna(Path wheelLib, Path nccl) {
    NativeLibrary.getInstance(nccl.toString(), Map.of(Library.OPTION_OPEN_FLAGS, RTLD_NOW_GLOBAL));
    RuntimeJna library = Native.load(wheelLib.resolve("libnccl_ep.so").toString(), RuntimeJna.class);
    int[] version = new int[1];
    if (library.ncclEpGetVersion(version) != 0) {
      throw new IllegalStateException("ncclEpGetVersion failed");
    }
    return version[0];
  }

  public static void main(String[] args) throws java.io.IOException {
    if (args.length == 2 && args[0].equals("standIns")) {
      System.out.println(RuntimeFixture.layOut(Path.of(args[1]).resolve("wheel_lib")));
      System.out.println(RuntimeFixture.nccl());
      System.out.println(RuntimeFixture.cudaLibDir());
      return;
    }
    if (args.length != 3 || !METHODS.contains(args[0])
        || !Files.isDirectory(Path.of(args[1])) || !Files.isRegularFile(Path.of(args[2]))) {
      System.err.println("usage: FirstCall teRuntime|availability|ffm|jna WHEEL_LIB LIBNCCL   (a wheel_lib folder holding"
          + " libnccl_ep.so, and a libnccl.so.2 file)\n       FirstCall standIns FOLDER   (lays out the stand-ins)");
      System.exit(1);
    }
    Path wheelLib = Path.of(args[1]);
    Path nccl = Path.of(args[2]);
    long start = System.nanoTime();
    int version = switch (args[0]) {
      case "teRuntime" -> teRuntime(wheelLib, nccl);
      case "availability" -> availability(wheelLib, nccl);
      case "ffm" -> ffm(wheelLib, nccl);
      default -> jna(wheelLib, nccl);
    };
    long end = System.nanoTime();
    System.out.println(args[0] + " first call " + (end - start) / 1_000_000.0 + " ms (ncclEpGetVersion " + version
        + ")");
  }
}
