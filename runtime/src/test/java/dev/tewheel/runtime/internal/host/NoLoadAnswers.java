package dev.tewheel.runtime.internal.host;

import dev.tewheel.loader.Binding;
import dev.tewheel.loader.LoaderSearch;
import dev.tewheel.runtime.internal.ffm.HostMachine;
import dev.tewheel.runtime.internal.ffm.Libc;
import dev.tewheel.runtime.internal.search.Discovery;
import dev.tewheel.runtime.internal.search.NcclGate;
import dev.tewheel.runtime.report.NcclStatus;
import dev.tewheel.runtime.report.NcclVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * te-runtime's side of NoLoadDifferentialTest, run in a child JVM with the case's LD_LIBRARY_PATH and current
 * directory, printing what noload_probe.c prints of glibc: the same loads (Libc.dlopen), then for each name
 * {@link LinkerHost#loadedFile} ("is it loaded?", which must never wait) and the loader model's
 * {@link LoaderSearch#open} ("would dlopen succeed, fail or wait?"). With {@code --nccl-gate}: the NCCL gate's
 * verdict when dlopen's own search is to find libnccl.so.2.
 */
public final class NoLoadAnswers {
  private NoLoadAnswers() {}

  public static void main(String[] args) {
    if (args.length == 1 && args[0].equals("--nccl-gate")) {
      // The NCCL gate left to dlopen's own search: its verdict, which must come without waiting.
      System.out.println(NcclGate.probe(new Discovery.NcclChoice(Optional.empty(),
          NcclStatus.Source.LOADER_SEARCH, ""), NcclVersion.EP_MINIMUM).detail());
      return;
    }
    int i = 0;
    for (; i < args.length && !args[i].equals("--"); i++) {
      Libc.Opened opened = Libc.dlopen(args[i], Libc.RTLD_NOW | Libc.RTLD_LOCAL);
      System.out.println("load " + args[i] + (opened.ok() ? " ok" : " fail " + opened.error()));
    }
    for (i++; i < args.length; i++) {
      String name = args[i];
      Optional<Path> loaded = LinkerHost.loadedFile(name);
      // glibc would wait where the model's search meets a FIFO before anything it could bind.
      boolean waits = loaded.isEmpty() && LinkerHost.waitsAt(name).filter(NoLoadAnswers::isFifo).isPresent();
      System.out.println("noload " + name + " " + (waits ? "waits" : loaded.map(NoLoadAnswers::real).orElse("-")));
      LoaderSearch.Opening opening = LoaderSearch.open(LinkerHost.host(), name, HostMachine.current());
      System.out.println("open " + name + " " + (opening.succeeds() ? "ok " + real(opening.file().get())
          : waitsForAWriter(opening) ? "waits" : "fail"));
    }
  }

  /** Whether the model says the open or a dependency's search stops at a FIFO (its sentence for that case). */
  private static boolean waitsForAWriter(LoaderSearch.Opening opening) {
    if (opening.detail().contains("is a FIFO")) {
      return true;
    }
    for (Binding dependency : opening.dependencies()) {
      if (!dependency.found() && dependency.detail().contains("is a FIFO")) {
        return true;
      }
    }
    return false;
  }

  private static boolean isFifo(Path file) {
    try {
      return ((Integer) Files.getAttribute(file, "unix:mode") & 0170000) == 0010000;
    } catch (IOException e) {
      return false;
    }
  }

  private static String real(Path file) {
    try {
      return file.toRealPath().toString();
    } catch (IOException e) {
      return file.toString();
    }
  }
}
