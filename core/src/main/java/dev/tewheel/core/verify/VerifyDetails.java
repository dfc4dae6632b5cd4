package dev.tewheel.core.verify;

import static dev.tewheel.json.Json.object;

import dev.tewheel.core.gate.ReportDetails;
import dev.tewheel.core.policy.PlatformSuggestion;
import java.util.List;
import java.util.Map;

/**
 * verify's report.json details: per library, its path in wheel_lib and the CUDA device code it carries; and the most
 * compatible platform tag the libraries allow, with what limits it.
 *
 * @param libraries every shipped library
 * @param suggestion the suggested platform tag ({@link dev.tewheel.core.check.platform.SuggestedPlatform}), or null when there
 *     are no libraries of the platform's architecture
 */
public record VerifyDetails(List<LibraryCode> libraries, PlatformSuggestion suggestion) implements ReportDetails {
  public VerifyDetails {
    libraries = List.copyOf(libraries);
  }

  /** The suggested tag, e.g. manylinux_2_34_x86_64, or null. */
  public String suggestedTag() {
    return suggestion == null ? null : suggestion.tag();
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
    Map<String, Object> json = object("libraries", libraries.stream().map(l -> object("path", l.path(), "sass",
        l.sass(), "ptx", l.ptx())).toList());
    if (suggestion != null) {
      json.put(Verifier.SUGGESTED_TAG, suggestion.tag());
      json.put("suggestedPlatformTagLimits", suggestion.limits());
    }
    return json;
  }
}
