package dev.tewheel.core.doctor;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * A small wheel a test packs for pip to install: its files, METADATA (Name, Version, Requires-Dist), WHEEL
 * (Root-Is-Purelib as the real distribution's says) and RECORD with each file's sha256 and size, as pip checks.
 */
final class TestWheel {
  private final String name;
  private final String version;
  private final boolean purelib;
  private final List<String> requires = new ArrayList<>();
  private final Map<String, byte[]> files = new LinkedHashMap<>();

  TestWheel(String name, String version, boolean purelib) {
    this.name = name;
    this.version = version;
    this.purelib = purelib;
  }

  TestWheel requires(String requirement) {
    requires.add(requirement);
    return this;
  }

  TestWheel file(String path, byte[] bytes) {
    files.put(path, bytes);
    return this;
  }

  TestWheel file(String path, Path from) throws IOException {
    return file(path, Files.readAllBytes(from));
  }

  TestWheel text(String path, String text) {
    return file(path, text.getBytes(StandardCharsets.UTF_8));
  }

  String normalizedName() {
    return name.replaceAll("[-_.]+", "_");
  }

  /** Writes {@code <name>-<version>-py3-none-<tag>.whl} into {@code folder}. */
  Path write(Path folder) throws IOException {
    String distInfo = normalizedName() + "-" + version + ".dist-info";
    Map<String, byte[]> all = new LinkedHashMap<>(files);
    StringBuilder metadata = new StringBuilder("Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version
        + "\n");
    requires.forEach(r -> metadata.append("Requires-Dist: ").append(r).append('\n'));
    all.put(distInfo + "/METADATA", metadata.toString().getBytes(StandardCharsets.UTF_8));
    String tag = purelib ? "py3-none-any" : "py3-none-linux_x86_64";
    all.put(distInfo + "/WHEEL", ("Wheel-Version: 1.0\nGenerator: te-wheel-test\nRoot-Is-Purelib: " + purelib
        + "\nTag: " + tag + "\n").getBytes(StandardCharsets.UTF_8));
    StringBuilder record = new StringBuilder();
    for (Map.Entry<String, byte[]> e : all.entrySet()) {
      record.append(e.getKey()).append(",sha256=").append(sha256(e.getValue())).append(',')
          .append(e.getValue().length).append('\n');
    }
    record.append(distInfo).append("/RECORD,,\n");
    all.put(distInfo + "/RECORD", record.toString().getBytes(StandardCharsets.UTF_8));
    Files.createDirectories(folder);
    Path wheel = folder.resolve(normalizedName() + "-" + version + "-" + tag + ".whl");
    try (OutputStream out = Files.newOutputStream(wheel); ZipOutputStream zip = new ZipOutputStream(out)) {
      for (Map.Entry<String, byte[]> e : all.entrySet()) {
        ZipEntry entry = new ZipEntry(e.getKey());
        entry.setTime(315532800000L);
        zip.putNextEntry(entry);
        zip.write(e.getValue());
        zip.closeEntry();
      }
    }
    return wheel;
  }

  private static String sha256(byte[] bytes) {
    try {
      return Base64.getUrlEncoder().withoutPadding().encodeToString(MessageDigest.getInstance("SHA-256")
          .digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
