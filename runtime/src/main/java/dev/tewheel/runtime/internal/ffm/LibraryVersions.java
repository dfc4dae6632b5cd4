package dev.tewheel.runtime.internal.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.tewheel.runtime.report.NcclVersion;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * Asks a loaded library its version with its own function, as the CUDA libraries' headers declare them:
 * {@code cudaError_t cudaRuntimeGetVersion(int*)} (1000*major + 10*minor), {@code size_t cublasLtGetVersion(void)}
 * and {@code size_t cudnnGetVersion(void)} (10000*major + 100*minor + patch; cuDNN 8: 1000*major + 100*minor +
 * patch), {@code cublasStatus_t cublasGetProperty(libraryPropertyType, int*)} (MAJOR_VERSION 0, MINOR_VERSION 1,
 * PATCH_LEVEL 2), {@code nvrtcResult nvrtcVersion(int*, int*)}, {@code curandStatus_t curandGetVersion(int*)}
 * (1000*major + 100*minor + patch) and {@code ncclResult_t ncclGetVersion(int*)}. Only libraries already mapped in
 * the process are asked, so no constructor runs for a report.
 */
@SuppressWarnings("restricted") // native access is checked by TeRuntime before discovery runs
public final class LibraryVersions {
  private LibraryVersions() {}

  /** The version function of the library of that short name, as the report names it. */
  public static Optional<String> functionOf(String library) {
    return Optional.ofNullable(switch (library) {
      case "cudart" -> "cudaRuntimeGetVersion";
      case "cublasLt" -> "cublasLtGetVersion";
      case "cublas" -> "cublasGetProperty";
      case "cudnn" -> "cudnnGetVersion";
      case "nvrtc" -> "nvrtcVersion";
      case "curand" -> "curandGetVersion";
      case "nccl" -> "ncclGetVersion";
      default -> null;
    });
  }

  /** The version {@code handle}'s library reports, or empty when it defines no such function or it fails. */
  public static Optional<String> read(String library, MemorySegment handle) {
    Optional<String> function = functionOf(library);
    if (function.isEmpty()) {
      return Optional.empty();
    }
    Optional<MemorySegment> address = Libc.dlsym(handle, function.get());
    if (address.isEmpty()) {
      return Optional.empty();
    }
    try {
      return switch (library) {
        case "cudart" -> intOut(address.get()).map(v -> v / 1000 + "." + (v % 1000) / 10);
        case "cublasLt" -> {
          long v = (long) handle(address.get(), FunctionDescriptor.of(JAVA_LONG)).invokeExact();
          yield v <= 0 ? Optional.empty() : Optional.of(v / 10000 + "." + (v % 10000) / 100 + "." + v % 100);
        }
        case "cudnn" -> {
          long v = (long) handle(address.get(), FunctionDescriptor.of(JAVA_LONG)).invokeExact();
          yield v <= 0 ? Optional.empty() : Optional.of(v >= 90000
              ? v / 10000 + "." + (v % 10000) / 100 + "." + v % 100
              : v / 1000 + "." + (v % 1000) / 100 + "." + v % 100);
        }
        case "cublas" -> {
          MethodHandle get = handle(address.get(), FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
          int[] parts = new int[3];
          for (int type = 0; type < 3; type++) {
            int[] value = new int[1];
            int status = (int) get.invokeExact(type, MemorySegment.ofArray(value));
            if (status != 0) {
              yield Optional.empty();
            }
            parts[type] = value[0];
          }
          yield Optional.of(parts[0] + "." + parts[1] + "." + parts[2]);
        }
        case "nvrtc" -> {
          int[] major = new int[1];
          int[] minor = new int[1];
          int status = (int) handle(address.get(), FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS))
              .invokeExact(MemorySegment.ofArray(major), MemorySegment.ofArray(minor));
          yield status != 0 ? Optional.empty() : Optional.of(major[0] + "." + minor[0]);
        }
        case "curand" -> intOut(address.get()).map(v -> v / 1000 + "." + (v % 1000) / 100 + "." + v % 100);
        case "nccl" -> intOut(address.get()).map(v -> NcclVersion.fromCode(v).toString());
        default -> Optional.empty();
      };
    } catch (Throwable t) {
      return Optional.empty();
    }
  }

  private static Optional<Integer> intOut(MemorySegment function) throws Throwable {
    int[] value = new int[1];
    int status = (int) handle(function, FunctionDescriptor.of(JAVA_INT, ADDRESS))
        .invokeExact(MemorySegment.ofArray(value));
    return status != 0 || value[0] <= 0 ? Optional.empty() : Optional.of(value[0]);
  }

  /** Trivial getters that write to a heap array: critical downcalls. */
  private static MethodHandle handle(MemorySegment function, FunctionDescriptor descriptor) {
    return Linker.nativeLinker().downcallHandle(function, descriptor, Linker.Option.critical(true));
  }
}
