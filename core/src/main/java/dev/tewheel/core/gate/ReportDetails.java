package dev.tewheel.core.gate;

import java.util.Map;

/**
 * What a kind of report adds to report.json before its findings (verify: the libraries' device code; diff: the
 * files and sizes compared), typed by the goal that knows it and written as its kind's JSON Schema describes.
 */
public interface ReportDetails {
  /** None: assemble's report, or a verdict before any details are known. */
  ReportDetails NONE = Map::of;

  /** The keys and values report.json holds, in order. */
  Map<String, Object> json();
}
