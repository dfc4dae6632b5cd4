package dev.tewheel.core.check.wheel;

import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.WheelCheck;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.wheel.DistInfo;
import dev.tewheel.core.wheel.RecordFile;
import dev.tewheel.core.zip.WheelArchive;
import dev.tewheel.core.zip.ZipBombBounds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The dist-info folder's RECORD lists every file of the wheel once, with the sha256 and size of its bytes, and
 * nothing else, as {@code wheel unpack} and pypa/installer's validation require. Every problem is reported, not the
 * first.
 */
public final class WheelRecordCheck extends WheelCheck {
  /** One row of RECORD, with the line it starts on. */
  private record Row(int line, String path, String hash, String size) {}

  public WheelRecordCheck() {
    super("WHEEL-RECORD",
        "RECORD lists every file once with its sha256 and size, and nothing else", Severity.ERROR);
  }

  @Override
  protected List<Finding> check(WheelArchive wheel, Subject subject) {
    String regenerate = "rebuild the wheel, or after a deliberate change regenerate RECORD (wheel pack does)";
    Optional<String> folder = DistInfo.folder(wheel);
    if (folder.isEmpty()) {
      return List.of(finding(wheel.path(), "no <distribution>-<version>.dist-info/RECORD (no dist-info folder"
          + " matches the file name)", "a RECORD listing every file with its sha256 and size",
          "build the wheel with a PEP 427 tool (wheel pack, pip wheel), which writes RECORD"));
    }
    String recordName = folder.get() + "/RECORD";
    String recordFile = wheel.path() + "!" + recordName;
    Optional<String> text;
    try {
      text = wheel.text(recordName, RecordFile.MAX_BYTES);
    } catch (IOException e) {
      return List.of(finding(recordFile, "a RECORD that cannot be read (" + e.getMessage() + ")",
          "a readable RECORD", "rebuild the wheel"));
    }
    if (text.isEmpty()) {
      return List.of(finding(recordFile, "no RECORD", "a RECORD listing every file with its sha256 and size",
          "build the wheel with a PEP 427 tool (wheel pack, pip wheel), which writes RECORD"));
    }
    List<Finding> findings = new ArrayList<>();
    List<RecordFile.Row> parsed;
    int maxRows = ZipBombBounds.DEFAULTS.maxEntries();
    try {
      parsed = RecordFile.parse(text.get(), maxRows);
    } catch (IllegalArgumentException e) {
      return List.of(finding(recordFile, "a RECORD that is not CSV (" + e.getMessage() + ")",
          "CSV rows of path,hash,size", regenerate));
    }
    if (parsed.size() > maxRows) {
      return List.of(finding(recordFile, String.format(java.util.Locale.ROOT, "a RECORD of more than %,d rows"
          + " (row %,d starts on line %,d); not read further", maxRows, parsed.size(), parsed.get(maxRows).line()),
          String.format(java.util.Locale.ROOT, "a row per file, and a wheel holds at most %,d entries (WHEEL-BOMB)",
              maxRows), regenerate));
    }
    Map<String, Row> rows = new LinkedHashMap<>();
    for (RecordFile.Row parsedRow : parsed) {
      List<String> row = parsedRow.fields();
      int line = parsedRow.line();
      if (row.size() != 3) {
        findings.add(finding(recordFile, "a row of " + row.size() + " fields (" + String.join(",", row)
            + ")", "3 fields: path,hash,size", regenerate).atLine(line));
        continue;
      }
      Row previous = rows.putIfAbsent(row.get(0), new Row(line, row.get(0), row.get(1), row.get(2)));
      if (previous != null) {
        findings.add(finding(wheel.path() + "!" + row.get(0), "a second RECORD row (lines " + previous.line()
            + " and " + line + ")", "one row per file", regenerate));
      }
    }
    // Hashing inflates; what the zip-bomb bounds flag is not inflated (WHEEL-BOMB says why), sizes still compare.
    BitSet notInflated = ZipBombBounds.DEFAULTS.notToInflate(wheel.entries());
    Set<String> refused = new HashSet<>();
    notInflated.stream().forEach(i -> refused.add(wheel.entries().get(i).name()));
    int unverified = 0;
    Map<String, WheelArchive.Entry> files = new LinkedHashMap<>();
    for (WheelArchive.Entry entry : wheel.entries()) {
      if (!entry.directory()) {
        files.putIfAbsent(entry.name(), entry); // a duplicate name is WHEEL-PATHS' to report
      }
    }
    for (WheelArchive.Entry entry : files.values()) {
      String file = wheel.path() + "!" + entry.name();
      Row row = rows.get(entry.name());
      if (RecordFile.isSignature(entry.name(), folder.get())) {
        continue; // PEP 427 lets RECORD leave its signatures out or list them without a hash
      }
      if (row == null) {
        findings.add(finding(file, "an entry that RECORD does not list", "every file listed in " + recordName,
            "list it in RECORD with its sha256 and size (" + regenerate + "), or remove the stray entry"));
      } else if (entry.name().equals(recordName)) {
        if (!row.hash().isEmpty() || !row.size().isEmpty()) {
          findings.add(finding(file, "its own RECORD row with hash '" + row.hash() + "' and size '" + row.size()
              + "'", "an empty hash and size (RECORD cannot hold its own digest)", regenerate));
        }
      } else if (checkSize(entry, row, file, regenerate, findings)) {
        if (refused.contains(entry.name())) {
          unverified++;
        } else {
          checkHash(wheel, entry, row, file, regenerate, findings);
        }
      }
    }
    if (unverified > 0) {
      findings.add(finding(recordFile, "the sha256 of " + unverified + " entries not verified: they are over the"
          + " zip-bomb bounds and were not inflated (see WHEEL-BOMB)", "every listed file verified",
          "rebuild the wheel without the flagged entries"));
    }
    for (Row row : rows.values()) {
      if (!files.containsKey(row.path())) {
        findings.add(finding(wheel.path() + "!" + row.path(), "a RECORD row (line " + row.line()
            + ") for an entry the wheel does not have", "rows only for files in the wheel", regenerate));
      }
    }
    return findings;
  }

  /** Whether the row's size is the entry's declared size and its hash a sha256; a finding when not. */
  private boolean checkSize(WheelArchive.Entry entry, Row row, String file, String regenerate, List<Finding> findings) {
    long size;
    try {
      size = Long.parseLong(row.size());
    } catch (NumberFormatException e) {
      findings.add(finding(file, "size '" + row.size() + "' in RECORD (line " + row.line() + ")",
          "its size in bytes, " + entry.size(), regenerate));
      return false;
    }
    if (size != entry.size()) {
      findings.add(finding(file, entry.size() + " bytes", size + " bytes as RECORD lists (line " + row.line() + ")",
          regenerate + "; a file changed after RECORD was written"));
      return false;
    }
    if (!RecordFile.isSha256Hash(row.hash())) {
      findings.add(finding(file, "hash '" + row.hash() + "' in RECORD (line " + row.line() + ")",
          "sha256=<urlsafe base64 without '=' padding>", regenerate));
      return false;
    }
    return true;
  }

  private void checkHash(WheelArchive wheel, WheelArchive.Entry entry, Row row, String file, String regenerate,
      List<Finding> findings) {
    try {
      String digest = RecordFile.hash(wheel.sha256(entry.name()));
      if (!digest.equals(row.hash())) {
        findings.add(finding(file, digest, row.hash() + " as RECORD lists (line " + row.line() + ")",
            regenerate + "; a file changed after RECORD was written"));
      }
    } catch (IOException e) {
      findings.add(finding(file, "an entry that cannot be read (" + e.getMessage() + ")",
          "the bytes RECORD lists", "rebuild the wheel"));
    }
  }
}
