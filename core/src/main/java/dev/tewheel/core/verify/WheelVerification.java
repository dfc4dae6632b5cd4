package dev.tewheel.core.verify;

import dev.tewheel.core.check.PlatformTag;
import dev.tewheel.core.wheel.WheelName;
import dev.tewheel.core.wheel.WheelSubject;
import java.io.IOException;

/** The .whl branch of {@link Verifier}: the wheel is opened in place and closed when the checks are done. */
final class WheelVerification {
  private WheelVerification() {}

  static VerifyReport verify(VerifyRequest request, Verifier verifier) throws IOException {
    String fromName;
    try {
      fromName = WheelName.parse(request.wheel().getFileName().toString()).platforms().get(0);
    } catch (IllegalArgumentException e) {
      fromName = null; // WHEEL-TAGS reports the name; the platform falls back to this machine
    }
    PlatformTag platform = Verifier.platform(request, fromName);
    try (WheelSubject wheel = WheelSubject.open(request.wheel(), request.wheelLibPath(), request.layout(),
        request.settings().withPlatform(platform))) {
      return verifier.finish(request, wheel.subject(), platform);
    }
  }
}
