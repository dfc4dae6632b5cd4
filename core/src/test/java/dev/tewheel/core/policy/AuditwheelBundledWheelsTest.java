package dev.tewheel.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.platform.SuggestedPlatform;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.verify.Verifier;
import dev.tewheel.core.verify.VerifyRequest;
import dev.tewheel.core.verify.WheelSubject;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The differential test: te-wheel's suggested platform tag on auditwheel's own bundled test wheels equals the
 * verdicts auditwheel's tests expect (test resources auditwheel-bundled-wheels/, ORIGIN.md there).
 */
class AuditwheelBundledWheelsTest {
  private static Path wheel(String name) throws URISyntaxException {
    return Path.of(AuditwheelBundledWheelsTest.class.getResource("/auditwheel-bundled-wheels/" + name).toURI());
  }

  private static PlatformSuggestion suggestion(String name) throws Exception {
    CheckSettings settings = CheckSettings.defaults().withPlatform(PlatformTag.parse("linux_x86_64"));
    try (WheelSubject opened = WheelSubject.open(wheel(name), null, Layout.ANY, settings)) {
      return SuggestedPlatform.of(opened.subject()).orElseThrow();
    }
  }

  @Test
  void cffiNeedsTwoLibrariesNoPolicyAllows() throws Exception {
    PlatformSuggestion s = suggestion("cffi-1.5.0-cp27-none-linux_x86_64.whl");
    // test_analyze_wheel_abi: external_refs["manylinux_2_5_x86_64"].libs == {libffi.so.5, libpython2.7.so.1.0}
    assertEquals(List.of("libffi.so.5", "libpython2.7.so.1.0"), s.outsideEveryPolicy());
    assertEquals("linux_x86_64", s.tag(), "auditwheel show: not grafted, an external library keeps linux");
    assertTrue(s.limits().stream().anyMatch(l -> l.contains("libffi.so.5")), s.limits().toString());
    // auditwheel's ucs2 rule (elf_find_ucs2_symbols): a Python 2 extension importing PyUnicodeUCS2_* functions.
    assertTrue(s.limits().stream().anyMatch(l -> l.contains("narrow-unicode (UCS2)")), s.limits().toString());
  }

  @Test
  void snappyNeedsLibsnappy() throws Exception {
    PlatformSuggestion s = suggestion("python_snappy-0.5.2-pp260-pypy_41-linux_x86_64.whl");
    assertEquals(List.of("libsnappy.so.1"), s.outsideEveryPolicy());
    assertEquals("linux_x86_64", s.tag());
  }

  @Test
  void pyfpeKeepsLinuxThoughTheSymbolsAllowManylinux1() throws Exception {
    PlatformSuggestion s = suggestion("fpewheel-0.0.0-cp35-cp35m-linux_x86_64.whl");
    // test_analyze_wheel_abi_pyfpe: sym_policy manylinux_2_5_x86_64, pyfpe and overall linux_x86_64
    assertEquals("manylinux_2_5_x86_64", s.symbolTag());
    assertEquals("linux_x86_64", s.tag());
    assertEquals(List.of(), s.outsideEveryPolicy());
    assertTrue(s.limits().stream().anyMatch(l -> l.contains("PyFPE_jbuf")), s.limits().toString());
  }

  @Test
  void zlibInternalsAreRefusedByEveryPolicy() throws Exception {
    PlatformSuggestion s = suggestion("testzlib-0.0.1-cp310-cp310-linux_x86_64.whl");
    // test_symbol_blacklist: sym_policy manylinux_2_12_x86_64, blacklist_policy and overall linux_x86_64
    assertEquals("manylinux_2_12_x86_64", s.symbolTag());
    assertEquals("linux_x86_64", s.tag());
    assertTrue(s.limits().stream().anyMatch(l -> l.startsWith("refused symbols") && l.contains("(libz.so.1)")),
        s.limits().toString());
  }

  @Test
  void verifyReportsTheTagInItsJsonDetails() throws Exception {
    Path testzlib = wheel("testzlib-0.0.1-cp310-cp310-linux_x86_64.whl");
    GateReport report = new Verifier().verify(VerifyRequest.wheel(testzlib).withLayout(Layout.ANY));
    assertEquals("linux_x86_64", report.details().json().get(Verifier.SUGGESTED_TAG));
    assertEquals("wheel testzlib-0.0.1-cp310-cp310-linux_x86_64.whl (layout any)", report.subject());
  }
}
