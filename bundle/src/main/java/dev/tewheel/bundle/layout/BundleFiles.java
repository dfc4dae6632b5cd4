package dev.tewheel.bundle.layout;

import java.io.IOException;
import java.io.InputStream;

/** One bundle's files, each read by its path in the bundle (one jar's, never mixed with another's). */
@FunctionalInterface
public interface BundleFiles {
  /** The file's bytes; null when the bundle lacks it. */
  InputStream open(String path) throws IOException;
}
