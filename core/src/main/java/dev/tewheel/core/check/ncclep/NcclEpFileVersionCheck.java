package dev.tewheel.core.check.ncclep;

import dev.tewheel.bundle.ncclep.NcclEpLibraryName;
import dev.tewheel.bundle.ncclep.NcclEpVersion;
import dev.tewheel.core.check.BaseCheck;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/** A versioned NCCL EP file name agrees with the shipped header's NCCL_EP_MAJOR.MINOR.PATCH. */
public final class NcclEpFileVersionCheck extends BaseCheck {
  public NcclEpFileVersionCheck() {
    super("EP-FILE-VERSION",
        "a versioned libnccl_ep.so.M[.m.p] file name matches nccl_ep.h's version", Severity.ERROR);
  }

  @Override
  public List<Finding> run(Subject subject) {
    Optional<SubjectFile> headerFile = subject.ncclEpHeader();
    if (headerFile.isEmpty()) {
      return List.of(); // LAYOUT-REQUIRED reports a missing nccl_ep.h
    }
    NcclEpVersion want;
    try {
      want = NcclEpVersion.fromHeader(subject.text(headerFile.get()));
    } catch (IOException | IllegalArgumentException e) {
      // The version is the single source of truth; a header that does not state it leaves nothing to hold to.
      return List.of(finding(headerFile.get().origin(), "an nccl_ep.h whose version cannot be read ("
          + e.getMessage() + ")", "#define NCCL_EP_MAJOR, NCCL_EP_MINOR and NCCL_EP_PATCH",
          "ship the nccl_ep.h that NCCL EP's build installed with this library"));
    }
    return subject.ncclEpLibrary().flatMap(ep -> NcclEpLibraryName.parse(ep.originName()).map(name -> {
      String fix = "ship the library and the headers of the same NCCL EP build (" + subject.layout().includeRoot()
          + "/nccl_ep.h says " + want + ")";
      if (name.version().isPresent() && !name.version().get().equals(want)) {
        return List.of(finding(ep.origin(), "file name version " + name.version().get(), "version " + want, fix));
      }
      if (name.major().isPresent() && name.major().getAsInt() != want.major()) {
        return List.of(finding(ep.origin(), "file name major " + name.major().getAsInt(), "major " + want.major(), fix));
      }
      return List.<Finding>of();
    })).orElse(List.of());
  }
}
