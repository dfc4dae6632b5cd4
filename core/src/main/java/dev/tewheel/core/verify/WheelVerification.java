package dev.tewheel.core.verify;

import java.io.IOException;

/** The .whl branch of {@link Verifier}; filled in with the wheel reader. */
final class WheelVerification {
  private WheelVerification() {}

  static VerifyReport verify(VerifyRequest request, Verifier verifier) throws IOException {
    throw new IOException("verifying a .whl needs the wheel reader, which is not built yet");
  }
}
