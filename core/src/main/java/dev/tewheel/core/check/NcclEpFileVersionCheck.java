package dev.tewheel.core.check;

import dev.tewheel.bundle.ncclep.NcclEpLibraryName;
import dev.tewheel.bundle.ncclep.NcclEpVersion;
import java.util.List;
import java.util.Optional;

/** A versioned NCCL EP file name agrees with the shipped header's NCCL_EP_MAJOR.MINOR.PATCH. */
final class NcclEpFileVersionCheck implements Check {
  @Override
  public String id() {
    return "EP-FILE-VERSION";
  }

  @Override
  public String title() {
    return "a versioned libnccl_ep.so.M[.m.p] file name matches nccl_ep.h's version";
  }

  @Override
  public Severity defaultSeverity() {
    return Severity.ERROR;
  }

  @Override
  public List<Finding> run(Subject subject) {
    Optional<NcclEpVersion> header = subject.headerVersion();
    if (header.isEmpty()) {
      return List.of();
    }
    return subject.ncclEpLibrary().flatMap(ep -> NcclEpLibraryName.parse(ep.originName()).map(name -> {
      NcclEpVersion want = header.get();
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
