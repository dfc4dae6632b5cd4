package dev.tewheel.core.doctor;

import dev.tewheel.standins.Gcc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A stand-in shared library for doctor's test environments, compiled by gcc with the stand-ins' flags (src/native's
 * Makefile: -O2 -fPIC -fvisibility=hidden, --hash-style=gnu, no build id, -z now -z relro where the real library is
 * BIND_NOW): its SONAME, the functions it exports (under one version node named like the SONAME, as NVIDIA versions
 * CUDA's libraries), the functions it calls from the libraries it links against, its RUNPATH, and optionally a
 * constructor that leaves a mark file when the library is loaded.
 *
 * @param soname the SONAME, also the file name
 * @param exports the functions defined and exported
 * @param versioned whether exports carry a version node named like the SONAME
 * @param imports the functions called, defined by the libraries {@code linkWith}
 * @param linkWith the libraries linked (their files); each becomes a DT_NEEDED of its SONAME
 * @param runpath DT_RUNPATH, if any (e.g. {@code $ORIGIN}); DT_RPATH instead with {@code rpath}
 * @param now linked -z now (BIND_NOW)
 * @param mark a file the library's constructor creates when it is loaded, if any
 * @param rpath whether {@code runpath} is written as DT_RPATH (searched before LD_LIBRARY_PATH), as torch's wheels
 *     write theirs (pytorch/builder#1150)
 */
record StandIn(String soname, List<String> exports, boolean versioned, List<String> imports, List<Path> linkWith,
    Optional<String> runpath, boolean now, Optional<Path> mark, boolean rpath) {
  StandIn(String soname, List<String> exports, boolean versioned, List<String> imports, List<Path> linkWith,
      Optional<String> runpath, boolean now, Optional<Path> mark) {
    this(soname, exports, versioned, imports, linkWith, runpath, now, mark, false);
  }

  static StandIn of(String soname, String... exports) {
    return new StandIn(soname, List.of(exports), true, List.of(), List.of(), Optional.empty(), false,
        Optional.empty());
  }

  /** {@code value} as DT_RPATH. */
  StandIn rpath(String value) {
    return new StandIn(soname, exports, versioned, imports, linkWith, Optional.of(value), now, mark, true);
  }

  StandIn unversioned() {
    return new StandIn(soname, exports, false, imports, linkWith, runpath, now, mark, rpath);
  }

  StandIn calling(List<Path> libraries, String... functions) {
    List<Path> with = new ArrayList<>(linkWith);
    with.addAll(libraries);
    List<String> calls = new ArrayList<>(imports);
    calls.addAll(List.of(functions));
    return new StandIn(soname, exports, versioned, calls, with, runpath, now, mark, rpath);
  }

  StandIn runpath(String value) {
    return new StandIn(soname, exports, versioned, imports, linkWith, Optional.of(value), now, mark);
  }

  StandIn bindNow() {
    return new StandIn(soname, exports, versioned, imports, linkWith, runpath, true, mark, rpath);
  }

  StandIn marking(Path file) {
    return new StandIn(soname, exports, versioned, imports, linkWith, runpath, now, Optional.of(file), rpath);
  }

  /** Compiles it into {@code folder}/{@code fileName} (its SONAME unless given) and returns the file. */
  Path build(Path folder, String fileName) throws IOException, InterruptedException {
    Files.createDirectories(folder);
    String stem = fileName.replaceAll("[^A-Za-z0-9]", "_");
    Path source = folder.resolve(".src-" + stem + ".c");
    StringBuilder c = new StringBuilder("/* te-wheel doctor test stand-in for ").append(soname).append(" */\n");
    c.append("#define API __attribute__((visibility(\"default\")))\n");
    int n = 1;
    for (String f : exports) {
      c.append("API int ").append(f).append("(void) { return ").append(n++).append("; }\n");
    }
    for (String f : imports) {
      c.append("extern int ").append(f).append("(void);\n");
    }
    if (!imports.isEmpty()) {
      // Hidden, but its calls are relocations the loader must bind: the library's imports.
      c.append("int te_standin_calls_").append(stem).append("(void) { return 0");
      imports.forEach(f -> c.append(" + ").append(f).append("()"));
      c.append("; }\n");
    }
    if (mark.isPresent()) {
      c.append("#include <stdio.h>\n__attribute__((constructor)) static void te_standin_mark(void) {\n")
          .append("  FILE *f = fopen(\"").append(mark.get().toString().replace("\\", "\\\\").replace("\"", "\\\""))
          .append("\", \"a\"); if (f) { fputs(\"").append(soname).append("\\n\", f); fclose(f); }\n}\n");
    }
    Files.writeString(source, c);
    List<String> args = new ArrayList<>(List.of("-O2", "-fPIC", "-fvisibility=hidden", "-shared",
        "-Wl,--hash-style=gnu", "-Wl,--build-id=none", "-Wl,-soname," + soname));
    if (now) {
      args.addAll(List.of("-Wl,-z,now", "-Wl,-z,relro"));
    }
    if (versioned && !exports.isEmpty()) {
      Path script = folder.resolve(".src-" + stem + ".map");
      Files.writeString(script, soname + " {\n  global:\n    " + String.join(";\n    ", exports)
          + ";\n  local: *;\n};\n");
      args.add("-Wl,--version-script," + script);
    }
    runpath.ifPresent(r -> args.addAll(List.of(rpath ? "-Wl,--disable-new-dtags" : "-Wl,--enable-new-dtags",
        "-Wl,-rpath," + r)));
    Path out = folder.resolve(fileName);
    args.addAll(List.of("-o", out.toString(), source.toString()));
    for (Path library : linkWith) {
      args.addAll(List.of("-L" + library.getParent(), "-l:" + library.getFileName(),
          "-Wl,-rpath-link," + library.getParent()));
    }
    Gcc.run(args);
    Files.delete(source);
    if (versioned && !exports.isEmpty()) {
      Files.delete(folder.resolve(".src-" + stem + ".map"));
    }
    return out;
  }
}
