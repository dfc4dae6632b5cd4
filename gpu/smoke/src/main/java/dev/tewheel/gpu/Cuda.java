package dev.tewheel.gpu;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * Copies between host memory and device memory, the one thing te-runtime does not do: the CUDA driver API of
 * {@code libcuda.so.1} (which every GPU host has, and which NCCL EP NEEDS) through java.lang.foreign. The copies run
 * in the context current on the calling thread; {@code ncclCommInitRank} leaves the device's primary context current
 * there, and {@link #ensureContext} makes it current when it is not.
 *
 * <p>With {@code standIns}, device memory is host memory (te-wheel's stand-in NCCL allocates it with
 * posix_memalign and its stand-in libcuda.so.1 has no cuMemcpy), so copies are plain memory copies: that mode exists
 * only to try the program on a machine without a GPU, and is refused when libcuda.so.1 defines the real functions.
 */
final class Cuda {
  private final boolean hostMemory;
  private final MethodHandle htod;
  private final MethodHandle dtoh;
  private final MethodHandle synchronize;
  private final MethodHandle ctxGetCurrent;
  private final MethodHandle errorString;
  private final SymbolLookup driver;

  private Cuda(boolean hostMemory, SymbolLookup driver) {
    this.hostMemory = hostMemory;
    this.driver = driver;
    Linker linker = Linker.nativeLinker();
    if (hostMemory) {
      htod = dtoh = synchronize = ctxGetCurrent = errorString = null;
      return;
    }
    htod = linker.downcallHandle(find("cuMemcpyHtoD_v2"), FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG));
    dtoh = linker.downcallHandle(find("cuMemcpyDtoH_v2"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG));
    synchronize = linker.downcallHandle(find("cuCtxSynchronize"), FunctionDescriptor.of(JAVA_INT));
    ctxGetCurrent = linker.downcallHandle(find("cuCtxGetCurrent"), FunctionDescriptor.of(JAVA_INT, ADDRESS));
    errorString = linker.downcallHandle(find("cuGetErrorString"), FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
  }

  /** The CUDA driver, or host copies when {@code standIns} and the driver is te-wheel's stand-in. */
  static Cuda open(boolean standIns) {
    SymbolLookup driver = SymbolLookup.libraryLookup("libcuda.so.1", Arena.global());
    boolean real = driver.find("cuMemcpyHtoD_v2").isPresent();
    if (standIns && real) {
      throw new IllegalStateException("--stand-ins given, but libcuda.so.1 defines cuMemcpyHtoD_v2: this is a real"
          + " CUDA driver, whose device memory must not be touched as host memory");
    }
    if (!standIns && !real) {
      throw new IllegalStateException("libcuda.so.1 has no cuMemcpyHtoD_v2: not a CUDA driver (te-wheel's stand-in?)."
          + " Give --stand-ins to run on stand-ins");
    }
    return new Cuda(!real, driver);
  }

  boolean hostMemory() {
    return hostMemory;
  }

  private MemorySegment find(String name) {
    return driver.find(name).orElseThrow(() -> new IllegalStateException("libcuda.so.1 has no " + name));
  }

  /** Makes device 0's primary context current when no context is (the driver must have been initialised). */
  void ensureContext() {
    if (hostMemory) {
      return;
    }
    boolean[] current = new boolean[1];
    NativeCall.run(() -> {
      try (Arena arena = Arena.ofConfined()) {
        MemorySegment ctx = arena.allocate(ADDRESS);
        check("cuCtxGetCurrent", (int) ctxGetCurrent.invokeExact(ctx));
        current[0] = !ctx.get(ADDRESS, 0).equals(MemorySegment.NULL);
      }
    });
    if (!current[0]) {
      useDevice(0);
      System.out.println("  (no CUDA context was current on this thread: made device 0's primary context current)");
    }
  }

  /**
   * Makes device {@code ordinal}'s primary context current on this thread, before {@code ncclCommInitRank}, which
   * takes the current device: one GPU per rank (LOCAL_RANK). Nothing to do on the stand-ins (one host "device").
   */
  void useDevice(int ordinal) {
    if (hostMemory) {
      return;
    }
    NativeCall.run(() -> {
      try (Arena arena = Arena.ofConfined()) {
        Linker linker = Linker.nativeLinker();
        check("cuInit", (int) linker.downcallHandle(find("cuInit"), FunctionDescriptor.of(JAVA_INT, JAVA_INT))
            .invokeExact(0));
        MemorySegment device = arena.allocate(JAVA_INT);
        check("cuDeviceGet", (int) linker.downcallHandle(find("cuDeviceGet"),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)).invokeExact(device, ordinal));
        MemorySegment primary = arena.allocate(ADDRESS);
        check("cuDevicePrimaryCtxRetain", (int) linker.downcallHandle(find("cuDevicePrimaryCtxRetain"),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)).invokeExact(primary, device.get(JAVA_INT, 0)));
        check("cuCtxSetCurrent", (int) linker.downcallHandle(find("cuCtxSetCurrent"),
            FunctionDescriptor.of(JAVA_INT, ADDRESS)).invokeExact(primary.get(ADDRESS, 0)));
      }
    });
  }

  void toDevice(MemorySegment device, MemorySegment host) {
    if (hostMemory) {
      MemorySegment.copy(host, 0, device, 0, host.byteSize());
    } else {
      NativeCall.run(() -> check("cuMemcpyHtoD_v2", (int) htod.invokeExact(device.address(), host, host.byteSize())));
    }
  }

  void toHost(MemorySegment host, MemorySegment device) {
    if (hostMemory) {
      MemorySegment.copy(device, 0, host, 0, host.byteSize());
    } else {
      NativeCall.run(() -> check("cuMemcpyDtoH_v2", (int) dtoh.invokeExact(host, device.address(), host.byteSize())));
    }
  }

  /** cuCtxSynchronize: waits for all work of the current context (the kernels NCCL EP launched). */
  void synchronize() {
    if (!hostMemory) {
      NativeCall.run(() -> check("cuCtxSynchronize", (int) synchronize.invokeExact()));
    }
  }

  @SuppressWarnings("restricted")
  private void check(String function, int result) throws Throwable {
    if (result == 0) {
      return;
    }
    String text = "?";
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ADDRESS);
      if ((int) errorString.invokeExact(result, out) == 0 && !out.get(ADDRESS, 0).equals(MemorySegment.NULL)) {
        text = out.get(ADDRESS, 0).reinterpret(Long.MAX_VALUE).getString(0);
      }
    }
    throw new IllegalStateException(function + " failed with CUresult " + result + " (" + text + ")");
  }
}
