package dev.tewheel.loader.te;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NCCL EP's JIT lookup as a function of variables and files: nvcc's order and PATH search (unnamed entries skipped
 * and named), the headers' order, the cache candidates' order, and what keeps the JIT from building.
 */
class NcclEpJitTest {
  @TempDir Path temp;

  @Test
  void theJitTakesHeadersFromItsVariableElseNcclEpHomeAndNvccInItsOrder() throws IOException {
    Path home = StandIns.ncclEpHome();
    Path a = nvcc("a");
    Path b = nvcc("b");
    Path cuda = nvcc("cuda").getParent().getParent();
    Path onPath = nvcc("path");
    String path = onPath.getParent() + ":/usr/bin";
    NcclEpJit.Lookup jit = lookup(Map.of("NCCL_EP_JIT_NVCC", a.toString(), "NVCC", b.toString(), "CUDA_HOME",
        cuda.toString(), "PATH", path), home);
    assertEquals(Optional.of(a), jit.nvcc().file());
    assertTrue(jit.headers());
    assertEquals(Optional.of(home.resolve("include/nccl_ep")), jit.sourceDir().folder());
    assertEquals(Optional.of(b), lookup(Map.of("NVCC", b.toString(), "CUDA_HOME", cuda.toString()), home).nvcc()
        .file());
    assertEquals(Optional.of(cuda.resolve("bin/nvcc")), lookup(Map.of("CUDA_HOME", cuda.toString(), "PATH", path),
        home).nvcc().file());
    // CUDA_HOME without an nvcc: PATH next, not CUDA_PATH.
    assertEquals(Optional.of(onPath), lookup(Map.of("CUDA_HOME", temp.toString(), "CUDA_PATH", cuda.toString(),
        "PATH", path), home).nvcc().file());
    NcclEpJit.Lookup none = lookup(Map.of("NCCL_EP_JIT_SOURCE_DIR", temp.toString()), home);
    assertEquals(List.of(false, Optional.empty()), List.of(none.headers(), none.nvcc().file()));
  }

  @Test
  void emptyAndRelativePathEntriesAreSkippedAndNamedAndOneHoldingNvccBeforeANamedOneIsAProblem() throws IOException {
    Path named = nvcc("named").getParent();
    Path relative = nvcc("relative").getParent();
    // A relative entry that reaches the temporary folder from the folder the test runs in.
    String entry = Path.of("").toAbsolutePath().relativize(relative).toString();
    NcclEpJit.Nvcc nvcc = NcclEpJit.nvcc(Map.of("PATH", ":" + entry + ":" + named + "::" + entry));
    assertEquals(Optional.of(named.resolve("nvcc")), nvcc.file());
    assertEquals(List.of("nvcc: the PATH entry '" + entry + "' (relative, so a folder below the current one) holds "
        + relative.resolve("nvcc") + ", which NCCL EP's JIT would run before any nvcc in a named folder. Remove the"
        + " entry from PATH, or set NCCL_EP_JIT_NVCC to the nvcc to use"), nvcc.unnamed());
    assertEquals("PATH; the PATH entry '' (the current folder) is skipped: te-wheel runs and loads nothing from a"
        + " folder not named by an absolute path, so it looks for programs only in the other entries. Name the folder"
        + " by its absolute path, or remove the entry; the PATH entry '" + entry + "' (relative, so a folder below the"
        + " current one) is skipped: te-wheel runs and loads nothing from a folder not named by an absolute path, so"
        + " it looks for programs only in the other entries. Name the folder by its absolute path, or remove the"
        + " entry", nvcc.source());
    // After a named folder's nvcc, an unnamed entry's is never reached; a name without '/' is looked up the same way.
    NcclEpJit.Nvcc after = NcclEpJit.nvcc(Map.of("NVCC", "nvcc", "PATH", named + ":" + entry));
    assertEquals(List.of(Optional.of(named.resolve("nvcc")), List.of()), List.of(after.file(), after.unnamed()));
    assertTrue(after.source().startsWith("NVCC=nvcc; the PATH entry '" + entry + "' (relative"), after.source());
    // A path in NCCL_EP_JIT_NVCC is taken as it is: PATH plays no part.
    assertEquals("NCCL_EP_JIT_NVCC=/none/nvcc", NcclEpJit.nvcc(Map.of("NCCL_EP_JIT_NVCC", "/none/nvcc", "PATH",
        ":")).source());
  }

  @Test
  void ncclAndCudaHeadersComeFromTheirVariablesThenNcclHomeOrCudaHomeThenPipThenConfigH() throws IOException {
    Path pip = ncclH(temp.resolve("site/nvidia/nccl/include"), "2.30.4", true);
    Path ncclHome = ncclH(temp.resolve("nccl/include"), "2.28.9", false).getParent();
    Path configH = Files.writeString(temp.resolve("config.h"), "#define NCCL_EP_JIT_BUILD_INCLUDE_DIR \"/build/nccl\"\n"
        + "#define NCCL_EP_JIT_CUDA_INCLUDE_DIR \"/build/cuda\"\n#define NCCL_EP_JIT_SOURCE_DIR \"/build/ep\"\n");
    Optional<Path> site = Optional.of(temp.resolve("site"));
    NcclEpJit.Lookup fromPip = NcclEpJit.lookup(Map.of(), Optional.empty(), "", Optional.of(configH), site);
    assertEquals(List.of(Optional.of(pip), Optional.of(pip), Optional.of("2.30.4")), List.of(fromPip.pipInclude(),
        fromPip.ncclInclude().folder(), fromPip.ncclHeaderVersion()));
    assertTrue(fromPip.ncclInclude().source().startsWith("pip wheel"), fromPip.ncclInclude().source());
    assertEquals(new NcclEpJit.Found(Optional.of(Path.of("/build/cuda")), "config.h"), fromPip.cudaInclude());
    assertEquals(new NcclEpJit.Found(Optional.of(Path.of("/build/ep")), "config.h"), fromPip.sourceDir());
    // NCCL_HOME comes before pip's, and an empty NCCL_EP_JIT_BUILD_INCLUDE_DIR keeps pip's out but counts as unset.
    NcclEpJit.Lookup home = NcclEpJit.lookup(Map.of("NCCL_HOME", ncclHome.toString(), "CUDA_PATH", "/cp"),
        Optional.empty(), "", Optional.of(configH), site);
    assertEquals(List.of(new NcclEpJit.Found(Optional.of(ncclHome.resolve("include")), "NCCL_HOME"),
        Optional.empty(), new NcclEpJit.Found(Optional.of(Path.of("/cp/include")), "CUDA_PATH")),
        List.of(home.ncclInclude(), home.pipInclude(), home.cudaInclude()));
    NcclEpJit.Lookup empty = NcclEpJit.lookup(Map.of("NCCL_EP_JIT_BUILD_INCLUDE_DIR", "", "CUDA_HOME", "/ch",
        "CUDA_PATH", "/cp"), Optional.empty(), "", Optional.of(configH), site);
    assertEquals(List.of(new NcclEpJit.Found(Optional.of(Path.of("/build/nccl")), "config.h"), Optional.empty(),
        new NcclEpJit.Found(Optional.of(Path.of("/ch/include")), "CUDA_HOME")), List.of(empty.ncclInclude(),
        empty.pipInclude(), empty.cudaInclude()));
    NcclEpJit.Lookup set = NcclEpJit.lookup(Map.of("NCCL_EP_JIT_BUILD_INCLUDE_DIR", ncclHome.resolve("include")
        .toString(), "NCCL_EP_JIT_CUDA_INCLUDE_DIR", "/ci", "CUDA_HOME", "/ch"), Optional.empty(), "", Optional.empty(),
        site);
    assertEquals(List.of(new NcclEpJit.Found(Optional.of(ncclHome.resolve("include")),
        "NCCL_EP_JIT_BUILD_INCLUDE_DIR"), new NcclEpJit.Found(Optional.of(Path.of("/ci")),
        "NCCL_EP_JIT_CUDA_INCLUDE_DIR")), List.of(set.ncclInclude(), set.cudaInclude()));

    // What is missing, in order: no nvcc, no kernel headers, no nccl_device.h, another NCCL's nccl.h, CUDA's headers.
    List<String> missing = set.missing(Optional.of("2.30.4"), "/lib/libnccl.so.2");
    assertEquals(5, missing.size(), missing.toString());
    assertTrue(missing.get(0).startsWith("nvcc: none found ("), missing.get(0));
    assertEquals("NCCL EP's kernel headers: no folder known (config.h). Set NCCL_EP_HOME to the folder whose"
        + " include/nccl_ep/ holds them (wheel_lib/nccl_ep in TE's layout)", missing.get(1));
    assertEquals("NCCL's device headers: no nccl_device.h in " + ncclHome.resolve("include") + " (NCCL >= 2.28 has"
        + " it)", missing.get(2));
    assertEquals("nccl.h in " + ncclHome.resolve("include") + " declares 2.28.9 but the NCCL loaded is 2.30.4"
        + " (/lib/libnccl.so.2): kernels would be built against another NCCL's device API. Point NCCL_HOME at the"
        + " loaded NCCL's installation", missing.get(3));
    assertEquals("CUDA's headers: no cuda_runtime.h in /ci (NCCL_EP_JIT_CUDA_INCLUDE_DIR). Set CUDA_HOME or"
        + " NCCL_EP_JIT_CUDA_INCLUDE_DIR", missing.get(4));
  }

  @Test
  void ncclEpHomeDecidesTheKernelHeadersAndAnEmptyOneNamesNone() throws IOException {
    Path bundle = temp.resolve("bundle");
    Path set = temp.resolve("set");
    assertEquals(new NcclEpJit.Found(Optional.of(bundle.resolve("include/nccl_ep")), "the bundle's"),
        NcclEpJit.lookup(Map.of(), Optional.of(bundle), "the bundle's", Optional.empty(), Optional.empty())
            .sourceDir());
    assertEquals(new NcclEpJit.Found(Optional.of(set.resolve("include/nccl_ep")), "NCCL_EP_HOME"),
        NcclEpJit.lookup(Map.of("NCCL_EP_HOME", set.toString()), Optional.of(bundle), "the bundle's",
            Optional.empty(), Optional.empty()).sourceDir());
    assertEquals(new NcclEpJit.Found(Optional.empty(), "config.h (NCCL_EP_HOME is empty, which the JIT treats as"
        + " unset)"), NcclEpJit.lookup(Map.of("NCCL_EP_HOME", ""), Optional.of(bundle), "the bundle's",
            Optional.empty(), Optional.empty()).sourceDir());
    assertEquals(new NcclEpJit.Found(Optional.empty(), "config.h"), NcclEpJit.lookup(Map.of(), Optional.empty(), "",
        Optional.empty(), Optional.empty()).sourceDir());
  }

  @Test
  void cacheCandidatesAreXdgThenHomeThenTheAccountsHomeThenAFreshFolderRelativeValuesIgnored() {
    NcclEpJit.CacheCandidates all = NcclEpJit.cacheCandidates(Map.of("XDG_CACHE_HOME", "/x", "HOME", "/h"), "/a");
    assertEquals(List.of(Optional.of(Path.of("/x/nccl_ep/jit")), Optional.of(Path.of("/h/.cache/nccl_ep/jit")),
        Optional.of(Path.of("/a/.cache/nccl_ep/jit")), Optional.empty()),
        all.candidates().stream().map(NcclEpJit.CacheCandidate::folder).toList());
    assertEquals(List.of("XDG_CACHE_HOME=/x", "HOME=/h", "user.home=/a", "a fresh private folder of this process"
        + " (its kernels are not reused by the next one)"),
        all.candidates().stream().map(NcclEpJit.CacheCandidate::from).toList());
    assertEquals(List.of(), all.ignored());
    // The account's home only when it differs from HOME; empty values count as unset.
    assertEquals(2, NcclEpJit.cacheCandidates(Map.of("XDG_CACHE_HOME", "", "HOME", "/h"), "/h").candidates().size());
    NcclEpJit.CacheCandidates relative = NcclEpJit.cacheCandidates(Map.of("XDG_CACHE_HOME", "xdg", "HOME", "home"),
        "");
    assertEquals(List.of("XDG_CACHE_HOME=xdg is relative, which the XDG base directory specification says to ignore",
        "HOME=home is relative, so it names no fixed folder: ignored"), relative.ignored());
    assertEquals(1, relative.candidates().size());
    // The JIT's shared default is a candidate that is never used.
    NcclEpJit.CacheCandidates tmp = NcclEpJit.cacheCandidates(Map.of("XDG_CACHE_HOME", "/tmp/"), "");
    assertEquals(Optional.of("XDG_CACHE_HOME=/tmp/ gives /tmp/nccl_ep/jit, NCCL EP's own default, which every user"
        + " of this machine shares: never used"), tmp.candidates().get(0).shared());
    assertEquals(Optional.empty(), all.candidates().get(0).shared());
  }

  private NcclEpJit.Lookup lookup(Map<String, String> variables, Path home) {
    return NcclEpJit.lookup(variables, Optional.of(home), "home", Optional.empty(), Optional.empty());
  }

  private Path ncclH(Path include, String version, boolean device) throws IOException {
    Files.createDirectories(include);
    String[] parts = version.split("\\.");
    Files.writeString(include.resolve("nccl.h"), "#define NCCL_MAJOR " + parts[0] + "\n#define NCCL_MINOR " + parts[1]
        + "\n#define NCCL_PATCH " + parts[2] + "\n");
    if (device) {
      Files.writeString(include.resolve("nccl_device.h"), "\n");
    }
    return include;
  }

  private Path nvcc(String folder) throws IOException {
    Path file = Files.createDirectories(temp.resolve(folder).resolve("bin")).resolve("nvcc");
    Files.writeString(file, "#!/bin/sh\nexit 1\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }

  @Test
  void aHeaderLargerThanAnyRealOneIsNotReadSoMemoryStaysBounded() throws IOException {
    String defines = "#define NCCL_MAJOR 2\n#define NCCL_MINOR 30\n#define NCCL_PATCH 4\n"
        + "#define NCCL_EP_JIT_SOURCE_DIR \"/build/include\"\n";
    Path small = Files.writeString(temp.resolve("nccl.h"), defines);
    assertEquals(Optional.of("2.30.4"), NcclEpJit.ncclHeaderVersion(small));
    assertEquals(Map.of("NCCL_EP_JIT_SOURCE_DIR", "/build/include"), NcclEpJit.defines(small));
    Path huge = Files.writeString(temp.resolve("huge.h"), defines);
    try (var file = java.nio.channels.FileChannel.open(huge, java.nio.file.StandardOpenOption.WRITE)) {
      file.write(java.nio.ByteBuffer.wrap(new byte[] {'\n'}), NcclEpJit.MAX_HEADER_BYTES); // sparse: no disk used
    }
    assertEquals(Optional.empty(), NcclEpJit.ncclHeaderVersion(huge));
    assertEquals(Map.of(), NcclEpJit.defines(huge));
    assertEquals(Optional.empty(), NcclEpJit.ncclHeaderVersion(temp)); // a folder is no header
  }
}
