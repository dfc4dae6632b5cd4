package dev.tewheel.runtime.cli;

import dev.tewheel.json.Json;
import dev.tewheel.json.Printable;
import dev.tewheel.runtime.report.Availability;
import dev.tewheel.runtime.report.JitPreflight;
import dev.tewheel.runtime.report.LoadPrediction;
import dev.tewheel.runtime.report.NativeWorld;
import dev.tewheel.runtime.error.LoadException;
import dev.tewheel.runtime.ncclep.NcclEp;
import dev.tewheel.runtime.report.Report;
import dev.tewheel.runtime.TeRuntime;
import dev.tewheel.runtime.te.TransformerEngine;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The diagnostics CLI, {@code te-wheel runtime}: prints the availability report; with {@code --load}, also loads
 * libtransformer_engine.so and NCCL EP as an application would. Exit status, as every te-wheel command's: 0 available
 * (and loaded), 1 not available, a load failed, or the TE library would not load (its load prediction), 2 usage
 * error (or native access not enabled). Every line it prints in text form went through the one escaping rule
 * ({@link Printable}); the JSON form escapes every non-ASCII character by itself.
 */
public final class Main {
  static final int AVAILABLE = 0;
  static final int NOT_AVAILABLE = 1;
  static final int USAGE = 2;

  private static final String USAGE_TEXT = """
      Usage: te-wheel runtime [--wheel-lib DIR] [--ep-major N] [--nccl-library FILE] [--load] [--json]
        --wheel-lib DIR       the wheel_lib folder (else -Dte.wheelLib, TE_WHEEL_LIB, NCCL_EP_HOME, the class path)
        --ep-major N          the NCCL EP major to accept when the bundle has no manifest (default 0)
        --nccl-library FILE   a libnccl.so.2 to preload (else the dynamic linker's search)
        --load                also load TE's native libraries, libtransformer_engine.so and NCCL EP, and
                              report what got mapped
        --json                print JSON instead of text
      te-runtime %s. Exit status: 0 available, 1 not available, a load failed or TE would not load, 2 usage error.
      """;

  private Main() {}

  public static void main(String[] args) {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(System.err, true, StandardCharsets.UTF_8);
    System.exit(run(args, out, err));
  }

  /** Runs the CLI; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    TeRuntime.Builder builder = TeRuntime.builder();
    boolean json = false;
    boolean load = false;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--json" -> json = true;
        case "--load" -> load = true;
        case "-h", "--help" -> {
          out.print(usage());
          return AVAILABLE;
        }
        case "--wheel-lib", "--ep-major", "--nccl-library" -> {
          if (i + 1 >= args.length) {
            return usageError(err, arg + " needs a value");
          }
          String value = args[++i];
          try {
            switch (arg) {
              case "--wheel-lib" -> builder.wheelLib(Path.of(value));
              case "--nccl-library" -> builder.ncclLibrary(Path.of(value));
              default -> builder.ncclEpMajor(parseMajor(value));
            }
          } catch (IllegalArgumentException e) {
            return usageError(err, arg + " " + value + ": " + e.getMessage());
          }
        }
        default -> {
          return usageError(err, "unknown argument '" + arg + "'");
        }
      }
    }
    TeRuntime runtime = builder.build();
    Availability availability;
    try {
      availability = runtime.availability();
    } catch (IllegalCallerException | IllegalArgumentException e) {
      println(err, "te-runtime: " + e.getMessage());
      return USAGE;
    }
    NativeWorld world = runtime.nativeWorld();
    JitPreflight jit = runtime.jitPreflight();
    StringBuilder loadText = new StringBuilder();
    Map<String, Object> loads = load ? loadAll(runtime, loadText) : null;
    boolean loadsOk = loads == null || Boolean.TRUE.equals(loads.get("ok"));
    if (json) {
      Map<String, Object> root = object(Report.json(availability));
      root.put("world", object(Report.json(world)));
      root.put("jit", object(Report.json(jit)));
      if (loads != null) {
        root.put("load", loads);
      }
      out.print(Json.write(root));
    } else {
      println(out, "te-runtime " + version() + ": NCCL EP availability");
      out.print(Report.text(availability));
      out.print(Report.text(world));
      out.print(Report.text(jit));
      out.print(loadText);
    }
    // A TE library the report predicts would not load fails the run too, loaded or not.
    boolean teLoads = world.transformerEngine().map(LoadPrediction::loads).orElse(true);
    return availability.available() && loadsOk && teLoads ? AVAILABLE : NOT_AVAILABLE;
  }

  /** Loads as an application would; returns the JSON object of what happened and appends the text to {@code text}. */
  private static Map<String, Object> loadAll(TeRuntime runtime, StringBuilder text) {
    Map<String, Object> result = new LinkedHashMap<>();
    // NCCL EP first: its availability is then decided before anything is mapped, as in the report above.
    Map<String, Object> ep = attempt(r -> {
      NcclEp library = runtime.loadNcclEp();
      r.put("file", library.file().toString());
      r.put("mappedFrom", library.mappedFrom().toString());
      r.put("version", library.version().toString());
      r.put("versionCode", library.getVersion());
      r.put("nccl", library.nccl().file().toString());
      r.put("ncclVersion", library.nccl().version().toString());
    });
    // Then TE's native libraries in their order (cudart ... NCCL), then TE itself.
    Map<String, Object> libraries = attempt(r -> runtime.loadNativeLibraries());
    Map<String, Object> te = attempt(r -> {
      TransformerEngine library = runtime.loadTransformerEngine();
      r.put("file", library.file().toString());
      r.put("mappedFrom", library.mappedFrom().toString());
      r.put("ncclEpHome", library.ncclEpHome().map(s -> (Object) Json.object("value", s.value(), "setByRuntime",
          s.setByRuntime(), "proposed", s.proposed())).orElse(null));
      r.put("ncclEpHomeText", library.ncclEpHome().map(Object::toString).orElse(null));
      r.put("nccl", library.nccl().file().toString());
    });
    result.put("ok", ok(te) && ok(ep) && ok(libraries));
    result.put("libraries", libraries);
    result.put("transformerEngine", te);
    result.put("ncclEp", ep);
    NativeWorld after = runtime.nativeWorld();
    result.put("mapped", object(Report.json(after)));
    line(text, ok(libraries) ? "Loaded TE's native libraries"
        : "Could not load TE's native libraries: " + libraries.get("error"));
    if (ok(te)) {
      line(text, "Loaded libtransformer_engine.so: " + te.get("file") + " (bound to libnccl.so.2 " + te.get("nccl")
          + ")");
      Object home = te.get("ncclEpHomeText");
      line(text, "  " + (home == null ? "NCCL_EP_HOME: not set (the bundle ships no NCCL EP headers)" : home));
    } else {
      line(text, "Could not load libtransformer_engine.so: " + te.get("error"));
    }
    line(text, ok(ep) ? "Loaded NCCL EP " + ep.get("version") + ": " + ep.get("file") + " (ncclEpGetVersion "
        + ep.get("versionCode") + ", NCCL " + ep.get("ncclVersion") + " from " + ep.get("nccl") + ")"
        : "Could not load NCCL EP: " + ep.get("error"));
    line(text, "After loading:");
    text.append(Report.text(after));
    return result;
  }

  private static boolean ok(Map<String, Object> load) {
    return Boolean.TRUE.equals(load.get("ok"));
  }

  /** {@code {ok: true}} and what {@code load} adds, or {@code {ok: false, error}} when it throws LoadException. */
  private static Map<String, Object> attempt(Consumer<Map<String, Object>> load) {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("ok", true);
    try {
      load.accept(result);
    } catch (LoadException e) {
      result.clear();
      result.put("ok", false);
      result.put("error", e.getMessage());
    }
    return result;
  }

  /** A report's JSON object, to nest in the CLI's one document. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(String json) {
    return new LinkedHashMap<>((Map<String, Object>) Json.parse(json));
  }

  private static int parseMajor(String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a number");
    }
  }

  private static int usageError(PrintStream err, String message) {
    println(err, "te-runtime: " + message);
    err.print(usage());
    return USAGE;
  }

  /**
   * Prints one line through the one escaping rule ({@link Printable#line}): paths, DT_NEEDED names, environment
   * values and the loader's messages that quote them must not start a line of their own.
   */
  private static void println(PrintStream stream, String line) {
    stream.print(Printable.line(line) + "\n");
  }

  private static void line(StringBuilder text, String line) {
    text.append(Printable.line(line)).append('\n');
  }

  private static String usage() {
    return USAGE_TEXT.formatted(version());
  }

  static String version() {
    String version = Main.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }
}
