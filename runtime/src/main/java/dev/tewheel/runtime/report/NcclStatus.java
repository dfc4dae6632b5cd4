package dev.tewheel.runtime.report;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The NCCL gate: whether {@code libnccl.so.2} loads and reports, through {@code ncclGetVersion}, at least the
 * required version. NCCL EP NEEDS {@code libnccl.so.2} and has no RUNPATH, so the copy it binds to is an
 * already loaded one if the process has one, else the one te-runtime preloads. te-runtime makes it; an application
 * reads it.
 *
 * @param library the file that was (or would be) bound, as the dynamic linker mapped it; empty when none loads.
 * @param source which copy the gate read: the one already mapped in this process, the configured file, or the one
 *     dlopen's own search finds.
 * @param version what it reports; empty when it does not load or lacks ncclGetVersion.
 * @param minimum the version required.
 * @param ok whether the gate passes.
 * @param detail one sentence for people, e.g. {@code libnccl.so.2 from /x reports 2.27.3, older than 2.30.4}.
 */
public record NcclStatus(Optional<Path> library, Source source, Optional<NcclVersion> version, NcclVersion minimum,
    boolean ok, String detail) {
  /** Which libnccl.so.2 the gate read. */
  public enum Source {
    /** A copy already mapped in this process: the dynamic linker binds NCCL EP to it whatever else is configured. */
    ALREADY_MAPPED("already mapped in this process"),
    /** The file configured with te.ncclLibrary (or the builder), which te-runtime preloads. */
    CONFIGURED("configured"),
    /**
     * The copy te-runtime's search for TE's native world found: a system root ({@code NCCL_HOME}, {@code CUDA_HOME},
     * ...), an override ({@code te.native.nccl.path}) or NVIDIA's pip wheel ({@code nvidia/nccl/lib}).
     */
    DISCOVERED("found by te-runtime's search"),
    /** The copy dlopen("libnccl.so.2") finds: LD_LIBRARY_PATH, /etc/ld.so.cache, the default folders. */
    LOADER_SEARCH("found by dlopen's search");

    private final String text;

    Source(String text) {
      this.text = text;
    }

    @Override
    public String toString() {
      return text;
    }
  }
}
