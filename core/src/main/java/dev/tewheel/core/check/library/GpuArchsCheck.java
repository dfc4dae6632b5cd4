package dev.tewheel.core.check.library;

import dev.tewheel.core.check.BaseCheck;
import dev.tewheel.core.check.CudaArchitecture;
import dev.tewheel.core.check.Libraries;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.FatBinaryEntry;
import dev.tewheel.elf.GpuCode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Every library that carries CUDA device code has code for each architecture the release declares
 * ({@code cudaArchitectures}): SASS that runs on it natively, else PTX the driver can JIT (a warning: the first
 * launch compiles, slowly, and the JIT may fail), else nothing, an error: "no kernel image is available".
 */
public final class GpuArchsCheck extends BaseCheck {
  public GpuArchsCheck() {
    super("GPU-ARCHS",
        "every library with CUDA code has SASS (else PTX to JIT: warning) for each declared cudaArchitectures entry", Severity.ERROR);
  }

  @Override
  public List<Finding> run(Subject subject) {
    List<CudaArchitecture> declared = subject.settings().cudaArchitectures();
    if (declared.isEmpty()) {
      return List.of();
    }
    String declaredText = declared.stream().map(CudaArchitecture::toString).collect(Collectors.joining(","));
    List<Finding> findings = new ArrayList<>();
    for (SubjectFile library : Libraries.of(subject)) {
      GpuCode code;
      try {
        code = subject.gpuCode(library);
      } catch (IOException e) {
        if (subject.readableElf(library, this, findings).isEmpty()) {
          continue;
        }
        findings.add(finding(library.origin(), "fat binaries the reader refuses (" + e.getMessage() + ")",
            "readable .nv_fatbin headers to check cudaArchitectures " + declaredText,
            "rebuild the library with nvcc; a post-link tool that rewrote .nv_fatbin left it inconsistent"));
        continue;
      }
      if (!code.sectionHeaders()) {
        findings.add(finding(library.origin(), "no section headers, so no .nv_fatbin to read",
            "section headers, to check its device code against cudaArchitectures " + declaredText,
            "do not strip section headers from the library (strip --strip-section-headers, sstrip); cuobjdump and"
                + " this check find device code by section"));
        continue;
      }
      if (code.isEmpty()) {
        continue; // host code only: nothing to run on a GPU
      }
      String has = describe(code);
      for (CudaArchitecture arch : declared) {
        if (code.entries().stream().anyMatch(e -> e.kind() == FatBinaryEntry.Kind.SASS && arch.runs(e))) {
          continue;
        }
        List<String> jit = code.entries().stream().filter(e -> e.kind() == FatBinaryEntry.Kind.PTX && arch.jits(e))
            .map(FatBinaryEntry::name).distinct().toList();
        String gencode = "-gencode arch=compute_" + arch + ",code=sm_" + arch;
        if (!jit.isEmpty()) {
          findings.add(finding(library.origin(), has + ": no SASS for sm_" + arch + ", only PTX "
                  + String.join(", ", jit) + " the driver must JIT on first use",
              "SASS for sm_" + arch + " (cudaArchitectures " + declaredText + ")",
              "add " + gencode + " to the build (CMAKE_CUDA_ARCHITECTURES / NVTE_CUDA_ARCHS), so users do not wait"
                  + " for the JIT; or accept the JIT with a suppression")
              .withSeverity(Severity.WARNING));
        } else {
          findings.add(finding(library.origin(), has + ": nothing that runs on sm_" + arch
                  + " (CUDA: \"no kernel image is available for execution on the device\")",
              "SASS for sm_" + arch + ", or PTX at or below it for the driver to JIT (cudaArchitectures "
                  + declaredText + ")",
              "add " + gencode + " to the build (CMAKE_CUDA_ARCHITECTURES / NVTE_CUDA_ARCHS), or remove " + arch
                  + " from cudaArchitectures if this release does not support it"));
        }
      }
    }
    return findings;
  }

  private static String describe(GpuCode code) {
    String sass = code.sass().isEmpty() ? "no SASS" : "SASS " + String.join(", ", code.sass());
    String ptx = code.ptx().isEmpty() ? "no PTX" : "PTX " + String.join(", ", code.ptx());
    return sass + " and " + ptx;
  }
}
