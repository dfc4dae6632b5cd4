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

  /** Words read at a time while walking a DT_GNU_HASH chain. */
  static final int HASH_CHAIN_CHUNK_WORDS = 256;
}
