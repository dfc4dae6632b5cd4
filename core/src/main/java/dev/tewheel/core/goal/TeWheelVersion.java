package dev.tewheel.core.goal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * te-wheel's version, as the build wrote it: what te-wheel --version prints and the Generator of the wheels
 * te:pack-wheel and te-wheel pack write, so both write the same bytes.
 */
public final class TeWheelVersion {
  private static final String VERSION = read();

  private TeWheelVersion() {}

  public static String version() {
    return VERSION;
  }

  /** The WHEEL file's Generator value, e.g. {@code te-wheel 0.1.0}. */
  public static String generator() {
    return "te-wheel " + VERSION;
  }

  private static String read() {
    Properties properties = new Properties();
    try (InputStream in = TeWheelVersion.class.getResourceAsStream("te-wheel.properties")) {
      if (in == null) {
        throw new IllegalStateException("te-wheel.properties is missing beside " + TeWheelVersion.class.getName()
            + ": the build writes it");
      }
      properties.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return properties.getProperty("version");
  }
}
