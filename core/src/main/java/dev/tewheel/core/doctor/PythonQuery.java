package dev.tewheel.core.doctor;

import dev.tewheel.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Asks one Python interpreter where it imports from: the only program te-wheel doctor runs. The query is fixed text
 * run with {@code -I -S}: isolated (no PYTHON* variables, no user site, not the current folder) and without the
 * {@code site} module's start-up, so no {@code .pth} file, {@code sitecustomize} or {@code usercustomize} of the
 * environment runs; the site-packages folders are computed by {@code site}'s functions, which only compute paths.
 */
public final class PythonQuery {
  /** The query: stdlib only, prints one JSON object. */
  static final String SCRIPT = String.join("\n",
      "import json, os, sys",
      // A venv's prefix is found as site would, from its pyvenv.cfg, without site's start-up (which runs .pth files),
      // and set before site and sysconfig are imported, as their rules read it then.
      "exe = os.path.dirname(os.path.abspath(sys.executable))",
      "prefix, system_site = sys.prefix, True",
      "for cfg in (os.path.join(exe, 'pyvenv.cfg'), os.path.join(os.path.dirname(exe), 'pyvenv.cfg')):",
      "  if os.path.isfile(cfg):",
      "    prefix = os.path.dirname(exe)",
      "    with open(cfg, encoding='utf-8') as f:",
      "      for line in f:",
      "        key, eq, value = line.partition('=')",
      "        if eq and key.strip().lower() == 'include-system-site-packages':",
      "          system_site = value.strip().lower() == 'true'",
      "    break",
      "venv = prefix != sys.base_prefix",
      "base = sys.prefix",
      "sys.prefix = sys.exec_prefix = prefix",
      "import site, sysconfig",
      "folders = site.getsitepackages([prefix]) if venv else []",
      "if not venv:",
      "  user = site.getusersitepackages()",
      "  folders += [user] + site.getsitepackages()",
      "elif system_site:",
      "  folders += site.getsitepackages([base])",
      // site adds only the folders that exist.
      "folders = [f for i, f in enumerate(folders) if os.path.isdir(f) and f not in folders[:i]]",
      "print(json.dumps({'executable': sys.executable, 'version': '%d.%d.%d' % sys.version_info[:3],",
      "  'prefix': prefix, 'platform': sysconfig.get_platform(), 'purelib': sysconfig.get_paths()['purelib'],",
      "  'ext_suffix': sysconfig.get_config_var('EXT_SUFFIX') or '', 'site_packages': folders}))",
      "");

  /** The longest the interpreter may take; a healthy one answers in well under a second. */
  static final long TIMEOUT_SECONDS = 30;

  /** The most of its output read: the answer is a few hundred bytes. */
  static final int MAX_OUTPUT = 1 << 20;

  private PythonQuery() {}

  /**
   * Runs {@code python} with the query; PYTHONPATH from {@code environment} comes first among the folders, as the
   * interpreter would put it.
   *
   * @throws DoctorException naming the interpreter when it cannot run or answers something else
   */
  public static PythonEnvironment ask(Path python, Map<String, String> environment) {
    if (!Files.isRegularFile(python) || !Files.isExecutable(python)) {
      throw new DoctorException("--python " + python + ": not an executable file; name the interpreter the job"
          + " runs (e.g. .venv/bin/python), or give --site-packages DIR");
    }
    ProcessBuilder builder = new ProcessBuilder(python.toString(), "-I", "-S", "-c", SCRIPT);
    builder.redirectErrorStream(true);
    builder.environment().clear();
    // Only what locates the interpreter's own files; nothing of the environment's start-up.
    for (String key : List.of("PATH", "HOME", "LANG", "LC_ALL")) {
      if (System.getenv(key) != null) {
        builder.environment().put(key, System.getenv(key));
      }
    }
    String text;
    int status;
    try {
      Process process = builder.start();
      process.getOutputStream().close();
      text = readBounded(process.getInputStream());
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new DoctorException("--python " + python + ": no answer within " + TIMEOUT_SECONDS + " s");
      }
      status = process.exitValue();
    } catch (IOException e) {
      throw new DoctorException("--python " + python + ": could not run it (" + e.getMessage() + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DoctorException("--python " + python + ": interrupted");
    }
    if (status != 0) {
      throw new DoctorException("--python " + python + ": the query exited " + status + ": " + text.strip()
          + "; expected a Python 3 interpreter");
    }
    try {
      return parse(text, environment);
    } catch (RuntimeException e) {
      throw new DoctorException("--python " + python + ": answered " + text.strip() + ", not the JSON object"
          + " expected (" + e.getMessage() + "); is it a Python 3 interpreter?");
    }
  }

  @SuppressWarnings("unchecked")
  static PythonEnvironment parse(String text, Map<String, String> environment) {
    Map<String, Object> answer = (Map<String, Object>) Json.parse(text.strip());
    List<Path> folders = new ArrayList<>();
    String pythonPath = environment.get("PYTHONPATH");
    if (pythonPath != null) {
      for (String entry : pythonPath.split(":")) {
        if (!entry.isEmpty()) {
          folders.add(Path.of(entry));
        }
      }
    }
    for (Object folder : (List<Object>) answer.get("site_packages")) {
      Path path = Path.of((String) folder);
      if (!folders.contains(path)) {
        folders.add(path);
      }
    }
    String suffix = (String) answer.get("ext_suffix");
    return new PythonEnvironment(Optional.of(Path.of((String) answer.get("executable"))),
        Optional.of((String) answer.get("version")), Optional.of(Path.of((String) answer.get("prefix"))),
        Optional.of((String) answer.get("platform")), suffix.isEmpty() ? Optional.empty() : Optional.of(suffix),
        folders, Path.of((String) answer.get("purelib")));
  }

  private static String readBounded(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    int n;
    while ((n = in.read(buffer)) > 0) {
      if (out.size() + n > MAX_OUTPUT) {
        throw new IOException("more than " + MAX_OUTPUT + " bytes of output");
      }
      out.write(buffer, 0, n);
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
