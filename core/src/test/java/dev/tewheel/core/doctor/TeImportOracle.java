package dev.tewheel.core.doctor;

import dev.tewheel.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The real thing doctor is held to: te_import_oracle.py, run by Debian's python3 with the environment's variables,
 * performs TE's ctypes loads in TE's order with the real glibc and says how the import ends.
 *
 * @param ok whether every load succeeded
 * @param stage where it failed (packages, cudnn, nvrtc, curand, cublas, cudart, core, torch, extension)
 * @param kind missing-library, undefined-symbol, missing-version, not-found, runtime-error, load-error
 * @param library the file (name) whose load failed
 * @param missing the SONAME, symbol or version glibc did not find
 * @param error the error text
 * @param loaded the files loaded, in order
 * @param ncclFiles after an import that works, the files of the libnccl.so.2 dlopen("libnccl.so.2") mapped (one,
 *     unless something is wrong); empty when none loads
 * @param ncclVersion what its ncclGetVersion reported, 0 when none loads
 */
record TeImportOracle(boolean ok, String stage, String kind, String library, String missing, String error,
    List<String> loaded, List<String> ncclFiles, int ncclVersion) {
  /** {@code ok}, or {@code <stage> <kind>[ <missing>]}: what the environments' {@code expect} says. */
  String outcome() {
    return ok ? "ok" : stage + " " + kind + (missing == null ? "" : " " + missing);
  }

  @SuppressWarnings("unchecked")
  static TeImportOracle run(DoctorEnvironments.Environment env) throws IOException, InterruptedException {
    Path script = Files.createTempFile("te_import_oracle", ".py");
    try (InputStream in = TeImportOracle.class.getResourceAsStream("te_import_oracle.py")) {
      Files.write(script, in.readAllBytes());
    }
    Map<String, String> variables = new HashMap<>(env.variables());
    try {
      List<String> command = new ArrayList<>(List.of(DoctorEnvironments.PIP_PYTHON.toString(), "-I", "-S",
          script.toString(), env.sitePackages().toString()));
      String out = DoctorEnvironments.run(command, variables, 60);
      Map<String, Object> answer = (Map<String, Object>) Json.parse(out.strip());
      Map<String, Object> nccl = (Map<String, Object>) answer.get("nccl");
      if (nccl != null && ((Number) nccl.get("status")).intValue() != 0) {
        throw new AssertionError("ncclGetVersion failed in " + env.name() + ": " + out);
      }
      return new TeImportOracle((Boolean) answer.get("ok"), (String) answer.get("stage"),
          (String) answer.get("kind"), (String) answer.get("library"), (String) answer.get("missing"),
          (String) answer.get("error"), ((List<Object>) answer.get("loaded")).stream().map(o -> (String) o)
              .toList(), nccl == null ? List.of() : ((List<Object>) nccl.get("file")).stream().map(o -> (String) o)
              .toList(), nccl == null ? 0 : ((Number) nccl.get("version")).intValue());
    } finally {
      Files.delete(script);
    }
  }
}
