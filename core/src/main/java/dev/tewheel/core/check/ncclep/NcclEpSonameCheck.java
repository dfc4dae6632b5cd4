package dev.tewheel.core.check.ncclep;

import dev.tewheel.bundle.ncclep.NcclEpLibraryName;
import dev.tewheel.core.check.PlacedLibraryCheck;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.ElfFile;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The NCCL EP library's SONAME is {@code libnccl_ep.so.<M>} with M the required major: what TE's provider and the
 * runtime's selection rule accept.
 */
public final class NcclEpSonameCheck extends PlacedLibraryCheck {
  public NcclEpSonameCheck() {
    super("EP-SONAME",
        "libnccl_ep.so's SONAME is libnccl_ep.so.<M>, M being NCCL_EP_MAJOR of the shipped nccl_ep.h", Severity.ERROR,
        Subject::ncclEpLibrary);
  }

  @Override
  protected void check(Subject subject, SubjectFile ep, ElfFile elf, List<Finding> findings) {
    String soname = elf.soname().orElse(null);
    OptionalInt required = subject.requiredNcclEpMajor();
    if (required.isEmpty()) {
      findings.add(finding(ep.origin(), "no NCCL_EP_MAJOR to compare with (neither configured nor in "
          + subject.layout().includeRoot() + "/nccl_ep.h)", "a known NCCL EP major",
          "ship NCCL EP's include/nccl_ep.h or set ncclEpMajor"));
      return;
    }
    String expected = NcclEpLibraryName.soname(required.getAsInt());
    if (expected.equals(soname)) {
      return;
    }
    OptionalInt actual = soname == null ? OptionalInt.empty() : NcclEpLibraryName.sonameMajor(soname);
    String fix = actual.isPresent()
        ? "ship the NCCL EP build whose header says NCCL_EP_MAJOR " + required.getAsInt() + ", or set ncclEpMajor to "
            + actual.getAsInt() + " if TE was built against NCCL EP " + actual.getAsInt()
        : "link NCCL EP with -Wl,-soname," + expected + " (its Makefile derives it from nccl_ep.h)";
    findings.add(finding(ep.origin(), soname == null ? "no SONAME" : "SONAME " + soname, "SONAME " + expected, fix));
  }
}
