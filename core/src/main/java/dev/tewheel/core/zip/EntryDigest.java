package dev.tewheel.core.zip;

import java.io.IOException;

/**
 * What reading an entry for its SHA-256 gave, kept so that RECORD, the manifest and the duplicate check ask once:
 * the digest, or the error every later asker gets again.
 */
sealed interface EntryDigest {
  /** The digest; a copy, so no asker can change what the next one gets. */
  byte[] sha256() throws IOException;

  /** The entry was read to its end. */
  record Read(byte[] digest) implements EntryDigest {
    @Override
    public byte[] sha256() {
      return digest.clone();
    }
  }

  /** The entry could not be read (refused, damaged, shorter than declared). */
  record Failed(IOException error) implements EntryDigest {
    @Override
    public byte[] sha256() throws IOException {
      throw error;
    }
  }
}
