package dev.tewheel.core.check;

import java.io.IOException;
import java.util.List;

/** NCCL EP's library exports ncclEpGetVersion, which the provider and the runtime call to check the major. */
final class NcclEpExportsCheck implements Check {
  static final String GET_VERSION = "ncclEpGetVersion";

  @Override
  public String id() {
    return "EP-EXPORTS";
  }

  @Override
  public String title() {
    return "libnccl_ep.so exports ncclEpGetVersion";
  }

  @Override
  public Severity defaultSeverity() {
    return Severity.ERROR;
  }

  @Override
  public List<Finding> run(Subject subject) {
    return subject.ncclEpLibrary().map(ep -> {
      try {
        if (subject.elf(ep).definedSymbolNames().contains(GET_VERSION)) {
          return List.<Finding>of();
        }
      } catch (IOException e) {
        return List.<Finding>of();
      }
      return List.of(finding(ep.origin(), "no defined dynamic symbol " + GET_VERSION, GET_VERSION + " exported",
          "ship the NCCL EP library itself (not a static archive or a stripped stub) built with default visibility"
              + " for its API"));
    }).orElse(List.of());
  }
}
