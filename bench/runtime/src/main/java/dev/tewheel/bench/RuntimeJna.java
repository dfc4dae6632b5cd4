package dev.tewheel.bench;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.LongByReference;

/** The JNA side of the comparison: an interface mapping (the usual way) and a direct mapping (JNA's fast path). */
public interface RuntimeJna extends Library {
  int ncclEpGetVersion(int[] version);

  int ncclEpHandleMemSize(Pointer group, int layout, Pointer config, LongByReference size, int numTopk);

  /** JNA direct mapping: native methods registered against the library. */
  final class Direct {
    private Direct() {}

    static native int ncclEpGetVersion(int[] version);

    static native int ncclEpHandleMemSize(long group, int layout, Pointer config, long[] size, int numTopk);

    static void register(String path) {
      Native.register(Direct.class, NativeLibrary.getInstance(path));
    }
  }
}
