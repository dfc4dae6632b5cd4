package dev.tewheel.core.verify;

import dev.tewheel.core.gate.ReportDetails;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * verify's report.json details: per library, its path in wheel_lib and the CUDA device code it carries.
 *
 * @param libraries every shipped library
 */
public record VerifyDetails(List<LibraryCode> libraries) implements ReportDetails {
  public VerifyDetails {
    libraries = List.copyOf(libraries);
  }

  /**
   * One library's device code.
   *
   * @param path its path in wheel_lib
   * @param sass SASS architectures (sm_90, …), or null when its fat binaries cannot be read
   * @param ptx PTX architectures (compute_90, …), or null when its fat binaries cannot be read
   */
  public record LibraryCode(String path, List<String> sass, List<String> ptx) {}

  @Override
  public Map<String, Object> json() {
    List<Object> entries = new ArrayList<>();
    for (LibraryCode library : libraries) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("path", library.path());
      entry.put("sass", library.sass());
      entry.put("ptx", library.ptx());
      entries.add(entry);
    }
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("libraries", entries);
    return json;
  }
}
