package dev.tewheel.core.assemble;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.manifest.FileKind;
import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.bundle.manifest.ManifestEntry;
import dev.tewheel.bundle.ncclep.NcclEpCandidate;
import dev.tewheel.bundle.ncclep.NcclEpLibraryName;
import dev.tewheel.bundle.ncclep.NcclEpSelection;
import dev.tewheel.bundle.ncclep.NcclEpVersion;
import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Gate;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.ReportKind;
import dev.tewheel.core.gate.ReportWriter;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.zip.ZipBombBounds;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ElfMachine;
import dev.tewheel.elf.GpuCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Lays out wheel_lib from a TE build: resolves NCCL EP's symlinks to the one real file, runs every check before
 * writing anything (the gate's report files written either way, when a report folder is given), then writes the
 * tree and its manifest atomically and incrementally.
 */
public final class Assembler {
  private final Consumer<String> log;

  /** @param log receives progress lines (large copies, recovery after an interrupted run) */
  public Assembler(Consumer<String> log) {
    this.log = log;
  }

  public AssembleResult assemble(AssembleRequest request) throws AssembleException {
    long start = System.nanoTime();
    List<PlannedFile> plan = plan(request);
    requireWithinBound(request, plan);
    TreeWriter writer = new TreeWriter(request.outputDirectory(), log);
    try {
      writer.recover(); // first: a tree put back from an interrupted swap is judged like any other
    } catch (IOException e) {
      throw new AssembleException("cleaning up what an interrupted run left beside " + request.outputDirectory()
          + " failed: " + e, e);
    }
    OwnedFolder.check(request.outputDirectory(), inputs(request, plan));
    Subject subject = new Subject("wheel_lib planned for " + request.outputDirectory(), request.layout(),
        plan.stream().map(p -> SubjectFile.onDisk(p.target(), p.source())).toList(), request.checks());
    requireReadableManifest(request, plan, subject); // before the checks read every file
    GateReport verdict = Gate.judge(ReportKind.ASSEMBLE, CheckCatalogue.CHECKS, subject, subject.description(),
        request.policy());
    try {
      ReportWriter.write(verdict, request.reportDirectory(), request.projectBase()); // a stopped run's too
    } catch (IOException e) {
      throw new AssembleException("writing the reports to " + request.reportDirectory() + " failed: " + e, e);
    }
    if (!verdict.passed()) {
      List<Finding> errors = verdict.findings().stream().filter(f -> f.severity() == Severity.ERROR).toList();
      throw new AssembleException(verdict.count(Severity.ERROR) + " check(s) failed; nothing was written to "
          + request.outputDirectory() + ":\n" + errors.stream().map(f -> "  " + f.message())
              .collect(Collectors.joining("\n")), verdict);
    }
    try {
      return write(request, writer, plan, subject, verdict, start);
    } catch (IOException e) {
      throw new AssembleException("writing " + request.outputDirectory() + " failed (" + e + "); the previous tree,"
          + " if any, is unchanged", e);
    }
  }

  /**
   * A wheel_lib of more files than a wheel may hold entries is refused before any is read: the wheel pack would make
   * of it fails WHEEL-BOMB, and the checks would hold an object per file.
   */
  private static void requireWithinBound(AssembleRequest request, List<PlannedFile> plan) throws AssembleException {
    int max = ZipBombBounds.DEFAULTS.maxEntries();
    if (plan.size() > max) {
      throw new AssembleException(String.format(Locale.ROOT, "wheel_lib %s would hold %,d files (%,d headers from"
          + " %s), more than the %,d entries a wheel may hold (WHEEL-BOMB's bound, which verify and pack hold the"
          + " wheel to); nothing was read or written. NCCL EP's JIT needs a few dozen headers: narrow headerIncludes"
          + " or headerExcludes, or point ncclEpHome at NCCL EP's build prefix", request.outputDirectory(),
          plan.size(), plan.stream().filter(p -> p.kind() == FileKind.HEADER).count(), request.ncclEpHome(), max));
    }
  }

  /**
   * The manifest this run would write, with every digest's place held by one of the same length, must be one its
   * readers accept (at most {@link Manifest#MAX_BYTES}): checked before the checks read the files and before
   * anything is copied.
   */
  private static void requireReadableManifest(AssembleRequest request, List<PlannedFile> plan, Subject subject)
      throws AssembleException {
    Map<String, AssembleState.Entry> sizes = new TreeMap<>();
    for (PlannedFile file : plan) {
      long size;
      try {
        size = TreeWriter.attributes(file.source()).size();
      } catch (IOException e) {
        size = 0; // the copy reports it
      }
      sizes.put(file.target(), new AssembleState.Entry(file.source().toString(), size, 0, "0".repeat(64)));
    }
    long bytes = manifest(request, plan, subject, sizes).jsonBytes();
    if (bytes > Manifest.MAX_BYTES) {
      throw new AssembleException(String.format(Locale.ROOT, "the manifest of wheel_lib %s would be %,d bytes for"
          + " %,d files, more than the %,d bytes every reader accepts (te-runtime, verify, jar-wheel-lib:"
          + " Manifest.MAX_BYTES), so nothing was written. Ship fewer files: NCCL EP's JIT needs a few dozen headers"
          + " (narrow headerIncludes or headerExcludes)", request.outputDirectory(), bytes, plan.size(),
          Manifest.MAX_BYTES));
    }
  }

  /** What the run reads, by the parameter that names it, for the rule that no input lies inside the output. */
  private static Map<String, Collection<Path>> inputs(AssembleRequest request, List<PlannedFile> plan) {
    Map<String, Collection<Path>> inputs = new LinkedHashMap<>();
    inputs.put("transformerEngineLibrary", List.of(request.transformerEngineLibrary()));
    if (request.ncclEpHome() != null) {
      inputs.put("ncclEpHome", List.of(request.ncclEpHome()));
    }
    inputs.put("input", plan.stream().map(PlannedFile::source).toList());
    if (request.stateFile() != null) {
      inputs.put("stateFile", List.of(request.stateFile()));
    }
    return inputs;
  }

  private List<PlannedFile> plan(AssembleRequest request) throws AssembleException {
    Layout layout = request.layout();
    Path te = request.transformerEngineLibrary();
    BasicFileAttributes teFile;
    try {
      teFile = Files.readAttributes(te, BasicFileAttributes.class);
    } catch (IOException e) {
      throw new AssembleException("transformerEngineLibrary " + te + " does not exist (" + e.getMessage() + "):"
          + " expected the libtransformer_engine.so that TE's CMake build produced; build TE first or fix the path", e);
    }
    if (!teFile.isRegularFile()) {
      throw new AssembleException("transformerEngineLibrary " + NcclEpInputs.notRegular(te, teFile) + ": expected"
          + " the libtransformer_engine.so that TE's CMake build produced; build TE first or fix the path");
    }
    List<PlannedFile> plan = new ArrayList<>();
    plan.add(new PlannedFile(layout.transformerEngineLibrary(), realPath(te), FileKind.TRANSFORMER_ENGINE_LIBRARY));
    if (request.ncclEpHome() == null) {
      return plan;
    }
    NcclEpInputs ep = NcclEpInputs.read(request.ncclEpHome(), request.headerIncludes(), request.headerExcludes());
    OptionalInt major = request.checks().requiredNcclEpMajor(() -> headerText(ep));
    Path library = chooseLibrary(ep, major, machineOf(te));
    int targetMajor = major.orElse(sonameMajor(library).orElse(NcclEpSelection.DEFAULT_MAJOR));
    plan.add(new PlannedFile(layout.ncclEpLibraryPath(targetMajor), library, FileKind.NCCL_EP_LIBRARY));
    ep.headers().forEach((relative, source) ->
        plan.add(new PlannedFile(layout.includeRoot() + "/" + relative, source, FileKind.HEADER)));
    Map<String, PlannedFile> byTarget = new TreeMap<>();
    for (PlannedFile file : plan) {
      PlannedFile other = byTarget.put(file.target(), file);
      if (other != null) {
        throw new AssembleException("layout " + layout.name() + " puts both " + other.source() + " and "
            + file.source() + " at " + file.target() + ": choose another ncclEpLibrary or includeRoot");
      }
    }
    return plan;
  }

  /**
   * The real file to ship: the one the selection rule accepts for the required major, else the file behind
   * {@code libnccl_ep.so}, which the checks then explain.
   */
  private static Path chooseLibrary(NcclEpInputs ep, OptionalInt major, ElfMachine machine) {
    List<Path> realFiles = new ArrayList<>(new LinkedHashSet<>(ep.libraries().values()));
    if (major.isPresent()) {
      NcclEpSelection selection = NcclEpSelection.select(realFiles, major.getAsInt(), machine, null);
      Optional<Path> chosen = selection.chosen().map(NcclEpCandidate::file);
      if (chosen.isPresent()) {
        return chosen.get();
      }
    }
    Path devLink = ep.libraries().get(NcclEpLibraryName.BASE);
    return devLink != null ? devLink : realFiles.get(realFiles.size() - 1);
  }

  /** nccl_ep.h's text from NCCL EP's build; empty when it has none or it cannot be read. */
  private static Optional<String> headerText(NcclEpInputs ep) {
    Path header = ep.headers().get(NcclEpVersion.HEADER);
    if (header == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Files.readString(header, StandardCharsets.UTF_8));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static ElfMachine machineOf(Path library) {
    try {
      return ElfFile.readWithoutSymbols(library).header().machine();
    } catch (IOException e) {
      return null; // ELF-SHARED-OBJECT reports it
    }
  }

  private static OptionalInt sonameMajor(Path library) {
    try {
      return ElfFile.readWithoutSymbols(library).soname().map(NcclEpLibraryName::sonameMajor).orElse(OptionalInt.empty());
    } catch (IOException e) {
      return OptionalInt.empty();
    }
  }

  private static Path realPath(Path file) throws AssembleException {
    try {
      return file.toRealPath();
    } catch (IOException e) {
      throw new AssembleException("cannot resolve " + file + ": " + e.getMessage(), e);
    }
  }

  private AssembleResult write(AssembleRequest request, TreeWriter writer, List<PlannedFile> plan, Subject subject,
      GateReport verdict, long start) throws IOException {
    Path out = request.outputDirectory().toAbsolutePath().normalize();
    Path stateFile = request.stateFileOrDefault();
    Files.createDirectories(stateFile.toAbsolutePath().getParent());
    String settings = "layout=" + request.layout() + ";timestamp=" + request.timestamp();
    AssembleState previous = Files.isDirectory(out) ? AssembleState.read(stateFile) : AssembleState.empty();
    boolean sameSettings = previous.settings().equals(settings);

    Map<String, AssembleState.Entry> next = new TreeMap<>();
    List<String> unchanged = new ArrayList<>();
    for (PlannedFile file : plan) {
      BasicFileAttributes source = TreeWriter.attributes(file.source());
      AssembleState.Entry before = previous.files().get(file.target());
      Path existing = out.resolve(file.target());
      if (sameSettings && before != null && before.source().equals(file.source().toString())
          && before.size() == source.size() && before.mtimeMillis() == source.lastModifiedTime().toMillis()
          && Files.isRegularFile(existing) && Files.size(existing) == before.size()) {
        unchanged.add(file.target());
        next.put(file.target(), before);
      }
    }
    List<String> planned = plan.stream().map(PlannedFile::target).toList();
    List<String> removed = writer.existingFiles().stream()
        .filter(p -> !planned.contains(p) && !p.equals(Layout.MANIFEST)).toList();
    Path manifestFile = out.resolve(Layout.MANIFEST);
    if (unchanged.size() == plan.size() && removed.isEmpty() && Files.isRegularFile(manifestFile)) {
      Manifest manifest = manifest(request, plan, subject, next);
      if (Files.readString(manifestFile, StandardCharsets.UTF_8).equals(manifest.toJson())) {
        return new AssembleResult(out, manifest, List.of(), unchanged, List.of(), 0, verdict, elapsed(start));
      }
    }

    Path staging = writer.newStaging();
    List<String> copied = new ArrayList<>();
    long bytes = 0;
    try {
      Map<Path, Path> copies = new LinkedHashMap<>();
      for (PlannedFile file : plan) {
        Path target = staging.resolve(file.target());
        if (unchanged.contains(file.target())) {
          TreeWriter.link(out.resolve(file.target()), target);
        } else {
          copies.put(target, file.source());
        }
      }
      Map<Path, String> digests = writer.copyAll(copies);
      for (PlannedFile file : plan) {
        Path target = staging.resolve(file.target());
        BasicFileAttributes source = TreeWriter.attributes(file.source());
        if (digests.containsKey(target)) {
          next.put(file.target(), new AssembleState.Entry(file.source().toString(), source.size(),
              source.lastModifiedTime().toMillis(), digests.get(target)));
          copied.add(file.target());
          bytes += source.size();
        }
        FileTime mtime = request.timestamp() != null ? request.timestamp() : source.lastModifiedTime();
        TreeWriter.normalize(target, file.executable(), mtime);
      }
      Manifest manifest = manifest(request, plan, subject, next);
      manifest.write(staging.resolve(Layout.MANIFEST));
      FileTime treeTime = request.timestamp() != null ? request.timestamp() : FileTime.fromMillis(0);
      TreeWriter.normalize(staging.resolve(Layout.MANIFEST), false, treeTime);
      TreeWriter.normalizeFolders(staging, treeTime);
      writer.swapIn(staging);
      new AssembleState(settings, next).write(stateFile);
      return new AssembleResult(out, manifest, copied, unchanged, removed, bytes, verdict, elapsed(start));
    } finally {
      TreeWriter.deleteTree(staging);
    }
  }

  private static Manifest manifest(AssembleRequest request, List<PlannedFile> plan, Subject subject,
      Map<String, AssembleState.Entry> digests) {
    Layout layout = request.layout();
    List<ManifestEntry> entries = new ArrayList<>();
    boolean ep = false;
    for (PlannedFile file : plan) {
      AssembleState.Entry digest = digests.get(file.target());
      switch (file.kind()) {
        case HEADER -> entries.add(ManifestEntry.header(file.target(), digest.size(), digest.sha256()));
        case TRANSFORMER_ENGINE_LIBRARY -> entries.add(withGpuCode(new ManifestEntry(file.target(), file.kind(),
            digest.size(), digest.sha256(), soname(subject, file.target()), null, null), subject));
        case NCCL_EP_LIBRARY -> {
          ep = true;
          String soname = soname(subject, file.target());
          Integer major = soname == null ? null : boxed(NcclEpLibraryName.sonameMajor(soname));
          String version = subject.headerVersion().map(NcclEpVersion::toString).orElse(null);
          entries.add(withGpuCode(new ManifestEntry(file.target(), file.kind(), digest.size(), digest.sha256(), soname,
              major, version), subject));
        }
      }
    }
    return new Manifest(layout.name(), ep ? layout.ncclEpHome() : null, ep ? layout.includeRoot() : null, entries);
  }

  /** The entry with the SASS and PTX its library carries; without them when the fat binaries cannot be read. */
  private static ManifestEntry withGpuCode(ManifestEntry entry, Subject subject) {
    try {
      GpuCode code = subject.gpuCode(subject.file(entry.path()).orElseThrow());
      return entry.withGpuCode(List.copyOf(code.sass()), List.copyOf(code.ptx()));
    } catch (IOException e) {
      return entry; // ELF-SHARED-OBJECT or GPU-ARCHS reports it
    }
  }

  private static String soname(Subject subject, String target) {
    try {
      return subject.elf(subject.file(target).orElseThrow()).soname().orElse(null);
    } catch (IOException e) {
      return null;
    }
  }

  private static Integer boxed(OptionalInt value) {
    return value.isPresent() ? value.getAsInt() : null;
  }

  private static Duration elapsed(long start) {
    return Duration.ofNanos(System.nanoTime() - start);
  }
}
