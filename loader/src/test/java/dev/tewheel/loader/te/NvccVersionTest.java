package dev.tewheel.loader.te;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * nvcc's release for the JIT preflight comes from the toolkit's files, never from running nvcc (the report once ran
 * an nvcc found through an empty PATH entry). Each layout a CUDA toolkit is installed in is laid out here with an nvcc
 * that would leave a mark if it ran.
 */
class NvccVersionTest {
  @TempDir Path temp;

  @Test
  void aRunfileToolkitsVersionJsonGivesTheCompilersRelease() throws Exception {
    Path root = temp.resolve("cuda-12.6");
    Files.createDirectories(root);
    Files.writeString(root.resolve("version.json"), """
        {
           "cuda" : { "name" : "CUDA SDK", "version" : "12.6.3" },
           "cuda_cudart" : { "name" : "CUDA Runtime (cudart)", "version" : "12.6.77" },
           "cuda_nvcc" : { "name" : "CUDA NVCC", "version" : "12.6.85" }
        }
        """);
    assertEquals(Optional.of("12.6.85"), version(root.resolve("bin/nvcc")));
  }

  @Test
  void aToolkitUnpackedFromNvidiasWheelsIsReadFromItsDistInfo() throws Exception {
    // /usr/local/cuda-13.0 on this project's machines: dist-info/nvidia_cuda_nvcc-13.0.88.dist-info, no version.json
    Path root = temp.resolve("cuda-13.0");
    Files.createDirectories(root.resolve("dist-info/nvidia_cuda_crt-13.0.88.dist-info"));
    Files.createDirectories(root.resolve("dist-info/nvidia_cuda_nvcc-13.0.88.dist-info"));
    cudaH(root, 13000);
    assertEquals(Optional.of("13.0.88"), version(root.resolve("bin/nvcc")));
  }

  @Test
  void nvccFromAPipWheelIsReadFromTheDistInfoWhoseRecordListsIt() throws Exception {
    Path site = temp.resolve("site-packages");
    Path info = Files.createDirectories(site.resolve("nvidia_cuda_nvcc-13.0.88.dist-info"));
    Files.writeString(info.resolve("RECORD"), "nvidia/cu13/bin/nvcc,sha256=x,30153384\n"
        + "nvidia/cu13/bin/nvcc.profile,sha256=y,505\n");
    // Another wheel's dist-info that does not list this nvcc is not taken.
    Path other = Files.createDirectories(site.resolve("nvidia_cuda_nvcc_cu12-12.9.86.dist-info"));
    Files.writeString(other.resolve("RECORD"), "nvidia/cuda_nvcc/bin/nvcc,sha256=z,1\n");
    assertEquals(Optional.of("13.0.88"), version(site.resolve("nvidia/cu13/bin/nvcc")));
    assertEquals(Optional.of("12.9.86"), version(site.resolve("nvidia/cuda_nvcc/bin/nvcc")));
  }

  @Test
  void withNothingElseCudaHGivesMajorAndMinor() throws Exception {
    Path root = temp.resolve("cuda");
    cudaH(root, 12080);
    assertEquals(Optional.of("12.8"), version(root.resolve("bin/nvcc")));
    assertEquals(Optional.empty(), version(temp.resolve("bare/bin/nvcc")));
  }

  /** NcclEpJit.nvccVersion of an nvcc that leaves a mark if run, asserting it never ran. */
  private Optional<String> version(Path nvcc) throws Exception {
    Path mark = temp.resolve("ran");
    Files.createDirectories(nvcc.getParent());
    Files.writeString(nvcc, "#!/bin/sh\necho ran >> " + mark + "\necho 'release 99.9, V99.9.99'\n");
    assertTrue(nvcc.toFile().setExecutable(true));
    Optional<String> version = NcclEpJit.nvccVersion(nvcc);
    assertFalse(Files.exists(mark), "nvcc ran");
    return version;
  }

  private static void cudaH(Path root, int code) throws Exception {
    Files.createDirectories(root.resolve("include"));
    Files.writeString(root.resolve("include/cuda.h"), "#ifndef __cuda_cuda_h__\n#define CUDA_VERSION " + code
        + "\n#endif\n");
  }
}
