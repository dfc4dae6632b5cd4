package dev.tewheel.core.wheel;

import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;

/**
 * Builds real .whl files for tests, as {@code wheel pack} would: the given entries, then the dist-info folder's
 * METADATA, WHEEL and a correct RECORD, each of which a test can break.
 */
public final class TestWheel {
  public static final String PREFIX = "transformer_engine/wheel_lib";
  public static final String FILE_NAME = "transformer_engine_cu12-2.9.0-py3-none-manylinux_2_28_x86_64.whl";

  /** One entry to write. */
  private record Item(String name, byte[] bytes, Path file, int method, int unixMode, boolean listed) {
    InputStream open() throws IOException {
      return file != null ? Files.newInputStream(file) : new java.io.ByteArrayInputStream(bytes);
    }
  }

  private final List<Item> items = new ArrayList<>();
  private String fileName = FILE_NAME;
  private String distInfo = "transformer_engine_cu12-2.9.0.dist-info";
  private String wheelText;
  private boolean record = true;
  private UnaryOperator<List<List<String>>> recordEditor = rows -> rows;
  private UnaryOperator<String> recordTextEditor = text -> text;
  private boolean zip64;
  private final List<String> metadataLines = new ArrayList<>();
  private boolean streamed;

  /** The stand-in libraries and headers in the default layout under transformer_engine/wheel_lib/. */
  public static TestWheel standIns() throws IOException {
    TestWheel wheel = new TestWheel()
        .add("transformer_engine/__init__.py", "# stand-in\n".getBytes(StandardCharsets.UTF_8))
        .add(PREFIX + "/libtransformer_engine.so", StandIns.transformerEngine())
        .add(PREFIX + "/libnccl_ep.so", StandIns.ncclEpLibrary());
    return wheel.addTree(PREFIX + "/nccl_ep/include", StandIns.ncclEpHome().resolve("include"));
  }

  /** Every regular file under {@code folder}, by its relative path under {@code prefix}, deflated. */
  public TestWheel addTree(String prefix, Path folder) throws IOException {
    try (Stream<Path> walk = Files.walk(folder)) {
      for (Path file : walk.filter(Files::isRegularFile).sorted().toList()) {
        add(prefix + "/" + folder.relativize(file).toString().replace('\\', '/'), file);
      }
    }
    return this;
  }

  public TestWheel add(String name, byte[] bytes) {
    items.add(new Item(name, bytes, null, ZipArchiveEntry.DEFLATED, 0100644, true));
    return this;
  }

  /** A file from disk, deflated; a .so gets mode 0755. */
  public TestWheel add(String name, Path file) {
    items.add(new Item(name, null, file, ZipArchiveEntry.DEFLATED, name.contains(".so") ? 0100755 : 0100644, true));
    return this;
  }

  /** Writes the already added entry {@code name} STORED instead of deflated. */
  public TestWheel store(String name) {
    for (int i = 0; i < items.size(); i++) {
      Item item = items.get(i);
      if (item.name().equals(name)) {
        items.set(i, new Item(item.name(), item.bytes(), item.file(), ZipArchiveEntry.STORED, item.unixMode(),
            item.listed()));
        return this;
      }
    }
    throw new IllegalArgumentException("no entry " + name);
  }

  public TestWheel addStored(String name, Path file) {
    items.add(new Item(name, null, file, ZipArchiveEntry.STORED, 0100755, true));
    return this;
  }

  /** An entry with the given method and unix mode (-1: none recorded), listed in RECORD. */
  public TestWheel add(String name, byte[] bytes, int method, int unixMode) {
    items.add(new Item(name, bytes, null, method, unixMode, true));
    return this;
  }

  /** An entry that RECORD does not list. */
  public TestWheel addUnlisted(String name, byte[] bytes) {
    items.add(new Item(name, bytes, null, ZipArchiveEntry.DEFLATED, 0100644, false));
    return this;
  }

  /** A symbolic link entry (unix mode 0120777) whose content is its target, listed in RECORD as pip would hash it. */
  public TestWheel addSymlink(String name, String target) {
    items.add(new Item(name, target.getBytes(StandardCharsets.UTF_8), null, ZipArchiveEntry.DEFLATED, 0120777, true));
    return this;
  }

  /** More METADATA header lines (e.g. {@code Requires-Dist: nvidia-nccl-cu12>=2.30.4}) after Name and Version. */
  public TestWheel metadata(String... lines) {
    metadataLines.addAll(List.of(lines));
    return this;
  }

  public TestWheel fileName(String value) {
    fileName = value;
    return this;
  }

  public TestWheel distInfo(String value) {
    distInfo = value;
    return this;
  }

  /** WHEEL's whole text instead of the one that matches the file name. */
  public TestWheel wheelText(String value) {
    wheelText = value;
    return this;
  }

  /** Writes ZIP64 records (extra fields, end record and locator) even where the sizes would fit without. */
  public TestWheel zip64() {
    zip64 = true;
    return this;
  }

  /** Writes to a stream that cannot seek, as a pipe would: deflated entries get data descriptors. */
  public TestWheel streamed() {
    streamed = true;
    return this;
  }

  public TestWheel withoutRecord() {
    record = false;
    return this;
  }

  /** Changes RECORD's rows (path, hash, size; RECORD's own row last) before it is written. */
  public TestWheel editRecord(UnaryOperator<List<List<String>>> editor) {
    recordEditor = editor;
    return this;
  }

  /** Changes RECORD's text after it is written as CSV. */
  public TestWheel editRecordText(UnaryOperator<String> editor) {
    recordTextEditor = editor;
    return this;
  }

  /** Replaces the row for {@code path}: field 0 is the path, 1 the hash, 2 the size. */
  public TestWheel recordField(String path, int field, String value) {
    UnaryOperator<List<List<String>>> previous = recordEditor;
    recordEditor = rows -> {
      List<List<String>> edited = new ArrayList<>();
      for (List<String> row : previous.apply(rows)) {
        if (row.get(0).equals(path)) {
          row = new ArrayList<>(row);
          row.set(field, value);
        }
        edited.add(row);
      }
      return edited;
    };
    return this;
  }

  public String defaultWheelText() {
    WheelName name = WheelName.parse(fileName);
    StringBuilder text = new StringBuilder("Wheel-Version: 1.0\nGenerator: te-wheel-test\nRoot-Is-Purelib: false\n");
    for (String tag : name.tags()) {
      text.append("Tag: ").append(tag).append('\n');
    }
    name.build().ifPresent(b -> text.append("Build: ").append(b).append('\n'));
    return text.toString();
  }

  /** Writes {@code dir/<file name>} and returns it. */
  public Path write(Path dir) throws IOException {
    Path whl = dir.resolve(fileName);
    List<Item> all = new ArrayList<>(items);
    String[] distName = distInfo.substring(0, distInfo.length() - ".dist-info".length()).split("-", 2);
    all.add(new Item(distInfo + "/METADATA", ("Metadata-Version: 2.1\nName: " + distName[0] + "\nVersion: "
        + (distName.length > 1 ? distName[1] : "0") + "\n" + metadataLines.stream().map(l -> l + "\n")
        .collect(java.util.stream.Collectors.joining())).getBytes(StandardCharsets.UTF_8), null,
        ZipArchiveEntry.DEFLATED, 0100644, true));
    all.add(new Item(distInfo + "/WHEEL", (wheelText != null ? wheelText : defaultWheelText())
        .getBytes(StandardCharsets.UTF_8), null, ZipArchiveEntry.DEFLATED, 0100644, true));
    List<List<String>> rows = new ArrayList<>();
    for (Item item : all) {
      if (item.listed()) {
        rows.add(List.of(item.name(), "sha256=" + digest(item), Long.toString(size(item))));
      }
    }
    rows.add(List.of(distInfo + "/RECORD", "", ""));
    if (record) {
      StringBuilder csv = new StringBuilder();
      for (List<String> row : recordEditor.apply(rows)) {
        csv.append(String.join(",", row.stream().map(TestWheel::csvField).toList())).append('\n');
      }
      byte[] text = recordTextEditor.apply(csv.toString()).getBytes(StandardCharsets.UTF_8);
      all.add(new Item(distInfo + "/RECORD", text, null, ZipArchiveEntry.DEFLATED, 0100644, true));
    }
    try (java.io.OutputStream file = streamed ? Files.newOutputStream(whl) : null;
        ZipArchiveOutputStream zip = streamed ? new ZipArchiveOutputStream(new java.io.FilterOutputStream(file) {
        }) : new ZipArchiveOutputStream(whl)) {
      if (zip64) {
        zip.setUseZip64(org.apache.commons.compress.archivers.zip.Zip64Mode.Always);
      }
      for (Item item : all) {
        ZipArchiveEntry entry = new ZipArchiveEntry(item.name());
        entry.setMethod(item.method());
        if (item.unixMode() >= 0) {
          entry.setUnixMode(item.unixMode());
        }
        if (item.method() == ZipArchiveEntry.STORED) {
          entry.setSize(size(item));
          entry.setCrc(crc(item));
        }
        entry.setTime(1_767_225_600_000L);
        zip.putArchiveEntry(entry);
        try (InputStream in = item.open()) {
          in.transferTo(zip);
        }
        zip.closeArchiveEntry();
      }
    }
    return whl;
  }

  /** sha256, urlsafe base64 without padding, as RECORD holds it. */
  public static String recordDigest(InputStream in) throws IOException {
    try {
      MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
      byte[] buffer = new byte[1 << 16];
      for (int n; (n = in.read(buffer)) > 0; ) {
        sha256.update(buffer, 0, n);
      }
      return Base64.getUrlEncoder().withoutPadding().encodeToString(sha256.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** RECORD's digest of a file. */
  public static String recordDigest(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return recordDigest(in);
    }
  }

  private static String digest(Item item) throws IOException {
    try (InputStream in = item.open()) {
      return recordDigest(in);
    }
  }

  private static long size(Item item) throws IOException {
    return item.file() != null ? Files.size(item.file()) : item.bytes().length;
  }

  private static long crc(Item item) throws IOException {
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    try (InputStream in = item.open()) {
      byte[] buffer = new byte[1 << 16];
      for (int n; (n = in.read(buffer)) > 0; ) {
        crc.update(buffer, 0, n);
      }
    }
    return crc.getValue();
  }

  private static String csvField(String field) {
    if (field.contains(",") || field.contains("\"") || field.contains("\n") || field.contains("\r")) {
      return "\"" + field.replace("\"", "\"\"") + "\"";
    }
    return field;
  }

  /** Writes {@code bytes} at {@code offset} of {@code file}: for corrupting a written archive in place. */
  public static void patch(Path file, long offset, byte[] bytes) throws IOException {
    try (var channel = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
      channel.write(java.nio.ByteBuffer.wrap(bytes), offset);
    }
  }
}
