package dev.tewheel.bundle.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LayoutTest {
  @Test
  void defaultLayoutIsTheTreeTeMaintainersDescribed() {
    Layout layout = Layout.named("default");
    assertEquals("libtransformer_engine.so", layout.transformerEngineLibrary());
    assertEquals("libnccl_ep.so", layout.ncclEpLibraryPath(0));
    assertEquals("nccl_ep/include", layout.includeRoot());
    assertEquals("nccl_ep", layout.ncclEpHome());
  }

  @Test
  void epHomeLayoutMakesNcclEpACompleteHome() {
    Layout layout = Layout.named("EP-Home");
    assertSame(Layout.EP_HOME, layout);
    assertEquals("nccl_ep/lib/libnccl_ep.so.0", layout.ncclEpLibraryPath(0));
    assertEquals("nccl_ep/lib/libnccl_ep.so.3", layout.ncclEpLibraryPath(3));
    assertEquals("nccl_ep", layout.ncclEpHome());
  }

  @Test
  void customPathsMakeACustomLayout() {
    Layout layout = Layout.DEFAULT.withNcclEpLibrary("libnccl_ep.so.{major}").withIncludeRoot("include");
    assertEquals("custom", layout.name());
    assertEquals("libnccl_ep.so.0", layout.ncclEpLibraryPath(0));
    assertEquals("", layout.ncclEpHome());
    assertSame(Layout.DEFAULT, Layout.DEFAULT.withIncludeRoot("nccl_ep/include"));
  }

  @Test
  void refusesUnknownNamesAndPathsOutsideWheelLib() {
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> Layout.named("flat"));
    assertTrue(unknown.getMessage().contains("[default, ep-home, any]"), unknown.getMessage());
    assertSame(Layout.ANY, Layout.named("any"));
    assertTrue(Layout.ANY.any() && !Layout.DEFAULT.any() && !Layout.ANY.withNcclEpLibrary("x/libnccl_ep.so").any());
    for (String bad : new String[] {"/abs/libnccl_ep.so", "../libnccl_ep.so", "a//b", "lib\\x.so", "", "lib/"}) {
      assertThrows(IllegalArgumentException.class, () -> Layout.DEFAULT.withNcclEpLibrary(bad), bad);
    }
    IllegalArgumentException include =
        assertThrows(IllegalArgumentException.class, () -> Layout.DEFAULT.withIncludeRoot("nccl_ep/headers"));
    assertTrue(include.getMessage().contains("$NCCL_EP_HOME/include/nccl_ep"), include.getMessage());
  }
}
