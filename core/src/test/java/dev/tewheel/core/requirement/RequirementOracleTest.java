package dev.tewheel.core.requirement;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tewheel.core.wheel.DebianPython;
import dev.tewheel.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * te-wheel's reading of Requires-Dist beside pip's own (Debian's python3, pip's vendored packaging) on a generated
 * space: PEP 440 versions (validity, normal form, order), PEP 508 requirements (accepted or not, name, extras,
 * clauses, URL), which probe versions each set contains, and markers evaluated in several environments.
 */
class RequirementOracleTest {
  @TempDir
  Path temp;

  private static final List<String> OPS = List.of("==", ">=", "<=", "!=", "~=", "<", ">", "===", "=", "=>", "");
  private static final List<String> VARIABLES = List.of("python_version", "python_full_version", "sys_platform",
      "platform_machine", "platform_system", "os_name", "os.name", "extra", "implementation_name",
      "platform_python_implementation", "python_implementation", "platform_release", "sys.platform", "unknown_var");

  /** Versions from every spelling PEP 440 allows, plus near misses. */
  static List<String> versions(Random random, int count) {
    List<String> out = new ArrayList<>(List.of("2.30.4", "2.30.4.0", "2.21.5", "2.30", "2.30.7", "2.30.4rc1",
        "2.30.4.post1", "2.30.4.dev0", "2.30.4+cu12", "1!2.0", "v2.30.4", " 2.30.4 ", "2.30.4-1", "2.30.4.a1",
        "2.30.4alpha", "2.30.4-rev2", "2.30.4_dev", "2.30.4+local.7", "2.30.4+", "2.30.4.", ".2.30", "2..30", "2.x",
        "13.0.0.19", "9.10.2.21", "12.8.93", "1.0c1", "1.0PRE2", "1.0preview", "1.0-dev3", "1.0+ABC.5", "1.0+abc-5",
        "1.0.POST", "1.0r", "1.0+\u212a", "1.0\u3000", "\u00a01.0", "1.0+1.a", "1.0+a.1", "1.0a1.dev1",
        "1.0.post1.dev1", "1.0rc1.post1", "0", "00.01", "1.0+01", "1.0.0.0.0.1"));
    String[] pre = {"", "a", "b", "c", "rc", "alpha", "beta", "pre", "preview", "A", "RC"};
    String[] post = {"", ".post", "post", "-", ".rev", "r", "_post"};
    String[] sep = {"", ".", "-", "_"};
    while (out.size() < count) {
      StringBuilder v = new StringBuilder();
      if (random.nextInt(10) == 0) {
        v.append(random.nextInt(3)).append('!');
      }
      int parts = 1 + random.nextInt(4);
      for (int i = 0; i < parts; i++) {
        v.append(i == 0 ? "" : ".").append(List.of(0, 1, 2, 9, 10, 30).get(random.nextInt(6)));
      }
      if (random.nextInt(3) == 0) {
        v.append(sep[random.nextInt(sep.length)]).append(pre[random.nextInt(pre.length)]);
        if (random.nextBoolean()) {
          v.append(random.nextInt(3));
        }
      }
      if (random.nextInt(4) == 0) {
        v.append(post[random.nextInt(post.length)]).append(random.nextInt(3));
      }
      if (random.nextInt(4) == 0) {
        v.append(sep[random.nextInt(sep.length)]).append(random.nextBoolean() ? "dev" : "DEV");
        if (random.nextBoolean()) {
          v.append(random.nextInt(3));
        }
      }
      if (random.nextInt(6) == 0) {
        v.append('+').append(List.of("cu12", "1", "a.b", "ubuntu-1", "x_2", "0.a").get(random.nextInt(6)));
      }
      out.add(v.toString());
    }
    return out;
  }

  private static String spec(Random random, List<String> versions) {
    String op = OPS.get(random.nextInt(OPS.size()));
    String version = versions.get(random.nextInt(versions.size())).strip();
    if (random.nextInt(5) == 0) {
      version = version.replaceAll("\\+.*", "") + ".*";
    }
    String space = List.of("", "", " ", "\t").get(random.nextInt(4));
    String junk = random.nextInt(15) == 0 ? List.of("foo", ")", ",", ";", ".x").get(random.nextInt(5)) : "";
    return op + space + version + junk;
  }

  private static String marker(Random random, int depth) {
    if (depth < 2 && random.nextInt(4) == 0) {
      String inner = "(" + marker(random, depth + 1) + ")";
      return random.nextBoolean() ? inner : inner + (random.nextBoolean() ? " and " : " or ")
          + marker(random, depth + 1);
    }
    String variable = VARIABLES.get(random.nextInt(VARIABLES.size()));
    String op = List.of("==", "!=", "<", ">=", "~=", "===", "in", "not in", "not  in", "=").get(random.nextInt(10));
    String value = List.of("3.8", "3.12", "linux", "x86_64", "aarch64", "floors", "Floors", "cpython", "posix",
        "3.11.0rc1", "3", "lin", "", "\\t", "=3.9", " 3.10").get(random.nextInt(16));
    String quote = random.nextInt(6) == 0 ? "'" : "\"";
    String quoted = quote + value + quote;
    String comparison = random.nextInt(5) == 0 ? quoted + " " + op + " " + variable
        : variable + (random.nextBoolean() ? " " : "") + op + (random.nextBoolean() ? " " : "") + quoted;
    if (depth < 2 && random.nextInt(3) == 0) {
      return comparison + List.of(" and ", " or ", "and ", " AND ", " or\n").get(random.nextInt(5))
          + marker(random, depth + 1);
    }
    return comparison;
  }

  private static List<String> requirements(Random random, List<String> versions, int count) {
    List<String> names = List.of("nvidia-nccl-cu12", "Nvidia_NCCL.cu12", "nvidia-cublas", "a", "a-", "-a", "a..b",
        "A__b", "1x", "n\u00e9", "x y");
    List<String> extras = List.of("", "", "", "[floors]", "[ a , b ]", "[]", "[a,]", "[a b]", "[a", "[Floors,x]");
    List<String> out = new ArrayList<>(List.of("nvidia-nccl-cu12>=2.30.4", "nvidia-nccl-cu12 (>=2.30.4)",
        "nvidia-nccl-cu12>=2.30.4; extra == \"floors\"", "nvidia-cublas>=13.0,<14; sys_platform == 'linux'",
        "x @ https://example.invalid/x.whl", "x @ file:///tmp/x.whl", "x @ notaurl", "x@https://h/x ; os_name=='posix'",
        "x===1.0;python_version>'3'", "x===1,x", "x>=1.0.foo", "x (>=1.0", "x >= 1.0 , < 2", ""));
    while (out.size() < count) {
      StringBuilder r = new StringBuilder(names.get(random.nextInt(names.size())));
      r.append(extras.get(random.nextInt(extras.size())));
      int clauses = random.nextInt(3);
      List<String> parts = new ArrayList<>();
      for (int i = 0; i < clauses; i++) {
        parts.add(spec(random, versions));
      }
      String joined = String.join(random.nextBoolean() ? "," : " , ", parts);
      if (!joined.isEmpty()) {
        r.append(random.nextBoolean() ? "" : " ").append(random.nextInt(4) == 0 ? "(" + joined + ")" : joined);
      }
      if (random.nextInt(3) == 0) {
        r.append(random.nextBoolean() ? "; " : ";").append(marker(random, 0));
      }
      out.add(r.toString());
    }
    return out;
  }

  private static List<Map<String, String>> environments() {
    List<Map<String, String>> envs = new ArrayList<>();
    for (String[] e : new String[][] {{"3.12", "3.12.3", "linux", "x86_64", ""}, {"3.9", "3.9.18", "linux", "aarch64",
        "floors"}, {"3.11", "3.11.0rc1", "win32", "AMD64", "Floors"}, {"3.10", "3.10.1", "linux", "x86_64", "x"}}) {
      Map<String, String> env = new LinkedHashMap<>();
      env.put("implementation_name", "cpython");
      env.put("implementation_version", e[1]);
      env.put("os_name", e[2].equals("win32") ? "nt" : "posix");
      env.put("platform_machine", e[3]);
      env.put("platform_release", "6.1.0");
      env.put("platform_system", e[2].equals("win32") ? "Windows" : "Linux");
      env.put("platform_version", "#1 SMP");
      env.put("python_full_version", e[1]);
      env.put("platform_python_implementation", "CPython");
      env.put("python_version", e[0]);
      env.put("sys_platform", e[2]);
      env.put("extra", e[4]);
      envs.add(env);
    }
    return envs;
  }

  @Test
  void versionsRequirementsAndMarkersReadAsPipReadsThem() throws Exception {
    Random random = new Random(33);
    List<String> versions = versions(random, 600);
    List<String> probes = new ArrayList<>();
    for (String v : versions) {
      if (PyVersion.isValid(v) && probes.size() < 60) {
        probes.add(v.strip());
      }
    }
    List<String> requirements = requirements(random, versions, 3000);
    List<String> markers = new ArrayList<>();
    for (int i = 0; i < 1500; i++) {
      markers.add(marker(random, 0));
    }
    List<Map<String, String>> envs = environments();
    Map<String, Object> cases = Json.object("versions", versions, "probes", probes, "requirements", requirements,
        "markers", markers, "envs", envs);
    Map<String, Object> answer = oracle(cases);

    List<Object> pipVersions = list(answer.get("versions"));
    List<String> valid = new ArrayList<>();
    for (int i = 0; i < versions.size(); i++) {
      String text = versions.get(i);
      Object pip = pipVersions.get(i);
      String ours;
      try {
        PyVersion v = PyVersion.parse(text);
        ours = v + " pre=" + v.isPrerelease();
        valid.add(text);
      } catch (IllegalArgumentException e) {
        ours = null;
      }
      String theirs = pip == null ? null : map(pip).get("text") + " pre=" + map(pip).get("pre");
      assertEquals(theirs, ours, "version '" + text + "'");
    }
    List<String> ordered = new ArrayList<>(valid);
    ordered.sort(Comparator.comparing(PyVersion::parse));
    assertEquals(answer.get("order"), ordered, "PEP 440 order");

    List<PyVersion> probeVersions = probes.stream().map(PyVersion::parse).toList();
    List<Object> pipRequirements = list(answer.get("requirements"));
    int accepted = 0;
    for (int i = 0; i < requirements.size(); i++) {
      String text = requirements.get(i);
      Map<String, Object> theirs = pipRequirements.get(i) == null ? null
          : new LinkedHashMap<>(map(pipRequirements.get(i)));
      Map<String, Object> ours;
      try {
        Requirement r = Requirement.parse(text);
        ours = new LinkedHashMap<>();
        ours.put("name", r.name());
        ours.put("extras", List.copyOf(r.extras()));
        List<List<Object>> specs = new ArrayList<>();
        r.specifiers().clauses().forEach(c -> specs.add(List.of(c.operator(), c.version(), c.legacy())));
        specs.sort(Comparator.comparing(Object::toString));
        ours.put("specs", specs);
        ours.put("url", r.url());
        ours.put("marker", r.marker() == null ? null : evaluate(r.marker(), envs));
        ours.put("contains", !r.specifiers().legacy().isEmpty() ? null
            : probeVersions.stream().map(p -> (Object) r.specifiers().contains(p)).toList());
        accepted++;
      } catch (IllegalArgumentException e) {
        ours = null;
      }
      if (theirs != null) {
        List<List<Object>> specs = new ArrayList<>();
        list(theirs.get("specs")).forEach(s -> specs.add(list(s)));
        specs.sort(Comparator.comparing(Object::toString));
        theirs.put("specs", specs);
      }
      assertEquals(String.valueOf(theirs), String.valueOf(ours), "requirement '" + text + "'");
    }
    List<Object> pipMarkers = list(answer.get("markers"));
    for (int i = 0; i < markers.size(); i++) {
      Object ours;
      try {
        ours = evaluate(Marker.parse(markers.get(i)), envs);
      } catch (IllegalArgumentException e) {
        ours = null;
      }
      assertEquals(String.valueOf(pipMarkers.get(i)), String.valueOf(ours), "marker '" + markers.get(i) + "'");
    }
    assertEquals(true, accepted > 500 && accepted < requirements.size(), "the space holds accepted and refused"
        + " requirements: " + accepted + " of " + requirements.size() + " accepted");
  }

  private static List<Object> evaluate(Marker marker, List<Map<String, String>> envs) {
    List<Object> out = new ArrayList<>();
    for (Map<String, String> env : envs) {
      try {
        out.add(marker.evaluate(env));
      } catch (Marker.EvaluationException e) {
        out.add("error");
      }
    }
    return out;
  }

  private Map<String, Object> oracle(Map<String, Object> cases) throws IOException, InterruptedException {
    Path script = temp.resolve("pip_packaging.py");
    try (InputStream in = RequirementOracleTest.class.getResourceAsStream("pip_packaging.py")) {
      Files.copy(in, script);
    }
    Path input = temp.resolve("cases.json");
    Path output = temp.resolve("answer.json");
    Files.writeString(input, Json.write(cases), StandardCharsets.UTF_8);
    DebianPython.Result result = DebianPython.run(List.of(DebianPython.PYTHON, script.toString(), input.toString(),
        output.toString()), temp, 300);
    assertEquals(0, result.exit(), "the oracle failed: " + result.output());
    return map(Json.parse(Files.readString(output, StandardCharsets.UTF_8)));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object value) {
    return (Map<String, Object>) value;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object value) {
    return (List<Object>) value;
  }
}
