package dev.tewheel.elf;

/** Caps that keep a hostile file from making the reader allocate much or loop long. */
final class Limits {
  private Limits() {}

  /**
   * The largest single table the reader reads (a string table, the dynamic symbols). Real dynamic string tables
   * stay in the low megabytes even for libraries of hundreds of megabytes.
   */
  static final int MAX_TABLE_BYTES = 64 << 20;

  /** Version definitions plus needed versions: DT_VERSYM's indexes are 15 bits. */
  static final int MAX_VERSION_ENTRIES = 0x8000;

  /** PT_INTERP: a path. */
  static final int MAX_INTERPRETER_BYTES = 4096;

  /** A note segment or section holding GNU properties: a few dozen bytes in practice. */
  static final int MAX_NOTE_BYTES = 64 << 10;

  /** Fat-binary containers and entries, together, in one file: cuBLASLt has about 8,000. */
  static final int MAX_FATBIN_RECORDS = 1 << 20;

  /** A fat-binary entry's header: 64 bytes, up to 112 seen with nvcc 13. */
  static final int MAX_FATBIN_ENTRY_HEADER = 64 << 10;

  /** Words read at a time while walking a DT_GNU_HASH chain. */
  static final int HASH_CHAIN_CHUNK_WORDS = 256;
}
